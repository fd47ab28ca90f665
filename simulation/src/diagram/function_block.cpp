// The `function` block: y = expr(inputs, diagram parameters, t) with muParser (Debian's
// libmuparser), parsed once at compile time so syntax errors surface at load, then evaluated
// from bytecode. Each workspace has its own parser whose variables point straight at that
// workspace's signal slots, parameter copy and time: evaluating copies nothing and allocates
// nothing. An expression affine in the inputs and t is evaluated as its folded affine form
// (affine_expression.hpp).
#include "affine_expression.hpp"
#include "block_factory.hpp"
#include "linear_form.hpp"

#include <simverify/core/text.hpp>

#include <muParser.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <string>

namespace simverify::simulation::diagram::detail {
namespace {

class FunctionScratch final : public BlockScratch {
 public:
  void parameters_changed() override {
    if (affine) affine->fold();
  }
  mu::Parser parser;
  std::optional<AffineExpression> affine;
};

class Function final : public Block {
 public:
  Function(std::string expr, std::vector<std::pair<std::string, int>> parameters)
      : expr_(std::move(expr)), parameters_(std::move(parameters)) {}

  void output(const Frame& f) const override {
    const auto& scratch = *static_cast<FunctionScratch*>(f.scratch[index]);
    out(f) = scratch.affine ? (*scratch.affine)() : scratch.parser.Eval();
  }
  // The folded affine form with each variable (an input's slot, t) replaced by its form.
  bool affine_output(AffineForms& forms) const override {
    const auto& scratch = *static_cast<const FunctionScratch*>(forms.scratch(*this));
    if (!scratch.affine) return false;
    const std::span<double> y = forms.output(*this, 0);
    y[AffineForms::constant()] = scratch.affine->constant();
    for (const auto& term : scratch.affine->terms()) {
      AffineForms::add(y, term.coefficient, forms.variable(term.variable));
    }
    return true;
  }

  [[nodiscard]] std::unique_ptr<BlockScratch> make_scratch(double* signals, double* parameters,
                                                           double* time) const override {
    auto scratch = std::make_unique<FunctionScratch>();
    define(scratch->parser, signals, parameters, time);
    (void)scratch->parser.Eval();  // compiles the bytecode now, not in the first evaluation
    std::vector<const double*> varying;
    for (const int slot : in_slot) varying.push_back(signals + slot);
    varying.push_back(time);
    scratch->affine = AffineExpression::read(scratch->parser, std::move(varying));
    return scratch;
  }

  // Binds the variables and sets the expression; throws mu::Parser::exception_type.
  void define(mu::Parser& parser, double* signals, double* parameters, double* time) const {
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      parser.DefineVar(inputs[i].name, signals + in_slot[i]);
    }
    for (const auto& [var, slot] : parameters_) parser.DefineVar(var, parameters + slot);
    parser.DefineVar("t", time);
    set_expression(parser, expr_);
  }

  // muParser's own unary operators, replaced by equal ones the affine reader knows.
  static void set_expression(mu::Parser& parser, const std::string& expr) {
    parser.DefineInfixOprt("-", unary_minus);
    parser.DefineInfixOprt("+", unary_plus);
    parser.SetExpr(expr);
  }

 private:
  std::string expr_;
  std::vector<std::pair<std::string, int>> parameters_;
};

bool is_identifier(const std::string& s) {
  return !s.empty() && (std::isalpha(static_cast<unsigned char>(s[0])) != 0 || s[0] == '_') &&
         std::all_of(s.begin(), s.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
         });
}

// muParser's `=` assigns to a variable, and a function block's variables are bound to other
// blocks' output slots, the run's parameters and t: `(x = 100) * 0` would silently rewrite
// the signal x for every block that reads it, and so would `x = 0 ? a : b`, a typo for `==`.
// The position of the first assignment operator (`=` that is not part of `==`, `<=`, `>=`,
// `!=`; a compound `+=`, `-=`, `*=`, `/=` at its first character), outside string literals,
// and its text; npos when there is none.
std::pair<std::size_t, std::string> function_assignment(const std::string& expr) {
  bool quoted = false;
  for (std::size_t i = 0; i < expr.size(); ++i) {
    const char c = expr[i];
    if (c == '"') quoted = !quoted;
    if (quoted || c != '=') continue;
    if (i + 1 < expr.size() && expr[i + 1] == '=') {  // `==`
      ++i;
      continue;
    }
    const char before = i > 0 ? expr[i - 1] : ' ';
    if (before == '<' || before == '>' || before == '!') continue;
    if (before == '+' || before == '-' || before == '*' || before == '/') {
      return {i - 1, expr.substr(i - 1, 2)};
    }
    return {i, "="};
  }
  return {std::string::npos, ""};
}

// The names an expression reads, defined or not; nullopt when it does not parse (the full
// parse reports that, at its position).
std::optional<std::set<std::string>> names_read(const std::string& expr) {
  try {
    mu::Parser parser;
    Function::set_expression(parser, expr);
    std::set<std::string> names;
    for (const auto& [name, address] : parser.GetUsedVar()) names.insert(name);
    return names;
  } catch (const mu::Parser::exception_type&) {
    return std::nullopt;
  }
}

// muParser reads `2,5*a` as two expressions and returns the last: a decimal comma would
// silently compute something else. The first comma outside parentheses and strings; npos
// when there is none.
std::size_t top_level_comma(const std::string& expr) {
  int depth = 0;
  bool quoted = false;
  for (std::size_t i = 0; i < expr.size(); ++i) {
    const char c = expr[i];
    if (c == '"') quoted = !quoted;
    if (quoted) continue;
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth <= 0) return i;
  }
  return std::string::npos;
}

bool assigns(const mu::ParserBase& parser) {
  const mu::ParserByteCode& code = parser.GetByteCode();
  const mu::SToken* token = code.GetBase();
  for (std::size_t n = 0; n < code.GetSize(); ++n) {
    if (token[n].Cmd == mu::cmASSIGN) return true;
  }
  return false;
}

}  // namespace

std::unique_ptr<Block> make_function(BlockBuilder& b) {
  const Param* expr = b.spec().find("expr");
  if (expr == nullptr) b.fail("missing parameter 'expr' (e.g. expr: \"a * sin(t)\")");
  if (!expr->is_text) b.fail(*expr, "expected the expression as a text");
  // Only the parameters the expression reads are bound: every parameter in every block's
  // parser costs parameters x blocks (4,000 of each took 14 s and 1.9 GB).
  const auto read = names_read(expr->text);
  const auto is_input = [&](const std::string& name) {
    const auto& inputs = b.spec().function_inputs;
    return std::find(inputs.begin(), inputs.end(), name) != inputs.end();
  };
  std::vector<std::pair<std::string, int>> parameters;
  if (read) {
    for (const auto& name : *read) {
      if (const int index = b.scope().find(name); index >= 0 && !is_input(name)) {
        parameters.emplace_back(name, index);
      }
    }
  } else {
    for (const auto& [name, index] : b.scope().names) {
      if (!is_input(name)) parameters.emplace_back(name, index);
    }
  }
  auto block = std::make_unique<Function>(expr->text, parameters);
  for (const auto& name : b.spec().function_inputs) {
    if (!is_identifier(name) || name == "t") {
      b.fail("input name '" + name + "' must be an identifier other than t");
    }
    for (const auto& port : block->inputs) {
      if (port.name == name) b.fail("input '" + name + "' is named twice");
    }
    block->inputs.push_back({name});
  }
  block->outputs = {{"y"}};
  // Parse once now, against dummy storage, so a bad expression is a load-time error at its
  // position in the file.
  std::vector<double> storage(b.table().specs.size() + block->inputs.size() + 1, 1.0);
  block->in_slot.resize(block->inputs.size());
  for (std::size_t i = 0; i < block->inputs.size(); ++i) {
    block->in_slot[i] = static_cast<int>(b.table().specs.size() + i);
  }
  const auto refuse_assignment = [&](std::size_t position, const std::string& op) {
    Origin at = expr->origin;
    if (at.column > 0 && position != std::string::npos) at.column += static_cast<int>(position);
    throw DiagramError(at, "block '" + b.name() + "' (function): expression error: '" + op +
                               "' assigns to a variable, which would overwrite the signal, "
                               "parameter or time other blocks read; an expression only computes "
                               "y" +
                               (op == "=" ? " (did you mean '=='?)" : ""));
  };
  if (const auto [position, op] = function_assignment(expr->text); position != std::string::npos) {
    refuse_assignment(position, op);
  }
  if (const std::size_t comma = top_level_comma(expr->text); comma != std::string::npos) {
    Origin at = expr->origin;
    if (at.column > 0) at.column += static_cast<int>(comma);
    throw DiagramError(at, "block '" + b.name() +
                               "' (function): expression error: ',' outside a function's "
                               "arguments would make several expressions, of which only the "
                               "last counts; decimals take a point (2.5, not 2,5)");
  }
  mu::Parser parser;
  try {
    block->define(parser, storage.data(), storage.data(), &storage.back());
    (void)parser.Eval();
    // (Refused above from the text; the bytecode is the parser's own word for it.)
    if (assigns(parser)) refuse_assignment(std::string::npos, "=");
    // The parameters the expression reads (a changed one refolds its affine form).
    const mu::varmap_type used = parser.GetUsedVar();
    for (const auto& [name, index] : parameters) {
      if (used.count(name) != 0) block->parameters_by_address.push_back(index);
    }
  } catch (const mu::Parser::exception_type& e) {
    Origin at = expr->origin;
    if (at.column > 0 && e.GetPos() >= 0) at.column += e.GetPos();
    std::vector<std::string> inputs;
    for (const auto& port : block->inputs) inputs.push_back(port.name);
    // muParser says "Unexpected token" for a name it does not know: name it as one.
    const std::string& token = e.GetToken();
    if (e.GetCode() == mu::ecUNASSIGNABLE_TOKEN && is_identifier(token)) {
      std::vector<std::string> known = inputs;
      known.emplace_back("t");
      for (const auto& name : b.scope().known()) known.push_back(name);
      throw DiagramError(
          at, "block '" + b.name() + "' (function): expression error: unknown name '" + token +
                  "'" + core::did_you_mean(token, known) + " (inputs: " +
                  core::join_or_none(inputs) + "; also t and the diagram parameters: " +
                  (b.scope().names.empty() ? std::string("none")
                                           : core::join_excerpt(b.scope().known())) +
                  ")");
    }
    throw DiagramError(at, "block '" + b.name() + "' (function): expression error: " + e.GetMsg() +
                               " (inputs: " + core::join_or_none(inputs) +
                               "; also t and the diagram parameters)");
  }
  block->in_slot.clear();
  b.finish({"expr", "inputs"});
  return block;
}

}  // namespace simverify::simulation::diagram::detail
