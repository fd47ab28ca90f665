#pragma once
// Internal: a function block's expression that is affine in its varying variables (the block's
// inputs and t): y = c + sum a_i v_i. Read from the bytecode muParser compiled (its reverse
// Polish notation); the parts that depend only on diagram parameters and literals are folded
// into c and the a_i for the run's parameters, so an evaluation is a few multiply-adds instead
// of a pass of muParser's interpreter (callgrind: ~190 instructions per expression of the
// quarter car). What is not affine (a product or quotient of two varying parts, a power or a
// function of one, a comparison, if-then-else) keeps being evaluated by muParser; so does every
// bytecode this reader does not know.
//
// Folding regroups the arithmetic (d * (v - w) becomes d v - d w): results agree with
// muParser's to rounding, not bit for bit.
#include <muParser.h>

#include <optional>
#include <vector>

namespace simverify::simulation::diagram::detail {

// The unary operators a function block's parser uses (defined instead of muParser's own, which
// do the same), so the bytecode reader recognises them by address.
double unary_minus(double v);
double unary_plus(double v);

class AffineExpression {
 public:
  // The expression of `parser` (its expression set and evaluated once) as an affine function of
  // the variables at `varying`, folded for the current values of every other variable it reads
  // (parameters); nullopt when it is not affine. `parser` must outlive the result and keep its
  // expression.
  [[nodiscard]] static std::optional<AffineExpression> read(const mu::ParserBase& parser,
                                                            std::vector<const double*> varying);

  // Folds c and the a_i again: the parameters the expression reads changed.
  void fold();

  struct Term {
    const double* variable;
    double coefficient;
  };
  [[nodiscard]] double constant() const { return constant_; }
  [[nodiscard]] const std::vector<Term>& terms() const { return terms_; }

  [[nodiscard]] double operator()() const {
    double y = constant_;
    for (const Term& term : terms_) y += term.coefficient * *term.variable;
    return y;
  }

 private:
  AffineExpression(const mu::ParserBase& parser, std::vector<const double*> varying);
  // One pass over the bytecode; false when an operation leaves the affine forms.
  [[nodiscard]] bool walk();

  const mu::ParserBase* parser_;
  std::vector<const double*> varying_;
  double constant_ = 0.0;
  std::vector<Term> terms_;  // per varying variable, side by side for the evaluation
  // The walk's stack: per entry c, a_1..a_n, and whether a varying variable entered it.
  std::vector<double> stack_;
  std::vector<char> varies_;
};

}  // namespace simverify::simulation::diagram::detail
