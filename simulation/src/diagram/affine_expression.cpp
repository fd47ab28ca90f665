// Reading muParser's bytecode as affine forms (affine_expression.hpp). Each stack entry of the
// bytecode's evaluation becomes c + sum a_i v_i; an operation whose result is not of that form
// ends the reading. The operations and their order are muParser's (ParserBase::ParseCmdCode):
// cmVAL pushes Val.data2, cmVARMUL pushes *ptr * data + data2, cmVARPOWk pushes (*ptr)^k.
#include "affine_expression.hpp"

#include <algorithm>
#include <cmath>

namespace simverify::simulation::diagram::detail {

double unary_minus(double v) {
  return -v;
}
double unary_plus(double v) {
  return v;
}

AffineExpression::AffineExpression(const mu::ParserBase& parser, std::vector<const double*> varying)
    : parser_(&parser),
      varying_(std::move(varying)),
      coefficients_(varying_.size(), 0.0),
      stack_(parser.GetByteCode().GetSize() * (varying_.size() + 1), 0.0),
      varies_(parser.GetByteCode().GetSize(), 0) {}

std::optional<AffineExpression> AffineExpression::read(const mu::ParserBase& parser,
                                                       std::vector<const double*> varying) {
  // Only the varying variables the bytecode reads get a term (an input the expression does
  // not name, t in most expressions).
  const mu::ParserByteCode& code = parser.GetByteCode();
  const mu::SToken* token = code.GetBase();
  std::erase_if(varying, [&](const double* v) {
    for (std::size_t n = 0; n < code.GetSize(); ++n) {
      const mu::ECmdCode cmd = token[n].Cmd;
      const bool reads = cmd == mu::cmVAR || cmd == mu::cmVARMUL || cmd == mu::cmVARPOW2 ||
                         cmd == mu::cmVARPOW3 || cmd == mu::cmVARPOW4;
      if (reads && token[n].Val.ptr == v) return false;
    }
    return true;
  });
  AffineExpression e(parser, std::move(varying));
  if (!e.walk()) return std::nullopt;
  return e;
}

void AffineExpression::fold() {
  // The bytecode's shape does not depend on the parameters' values: it stays affine.
  (void)walk();
}

bool AffineExpression::walk() {
  const mu::ParserByteCode& code = parser_->GetByteCode();
  const mu::SToken* token = code.GetBase();
  const std::size_t width = varying_.size() + 1;
  std::size_t depth = 0;  // entries on the stack
  const auto entry = [&](std::size_t k) { return stack_.data() + k * width; };
  const auto push = [&](double c) {
    double* e = entry(depth);
    std::fill_n(e, width, 0.0);
    e[0] = c;
    varies_[depth] = 0;
    return depth++;
  };
  // A variable: a unit form when it varies, else its current value (a parameter).
  const auto push_variable = [&](const double* address) {
    const auto it = std::find(varying_.begin(), varying_.end(), address);
    if (it == varying_.end()) return push(*address);
    const std::size_t k = push(0.0);
    entry(k)[1 + static_cast<std::size_t>(it - varying_.begin())] = 1.0;
    varies_[k] = 1;
    return k;
  };
  const auto scale = [&](std::size_t k, double factor) {
    double* e = entry(k);
    for (std::size_t i = 0; i < width; ++i) e[i] *= factor;
  };
  for (std::size_t n = 0; n < code.GetSize() && token[n].Cmd != mu::cmEND; ++n) {
    const mu::SToken& t = token[n];
    switch (t.Cmd) {
      case mu::cmVAL: push(t.Val.data2); break;
      case mu::cmVAR: push_variable(t.Val.ptr); break;
      case mu::cmVARMUL: {
        const std::size_t k = push_variable(t.Val.ptr);
        if (varies_[k] != 0) {
          scale(k, t.Val.data);
          entry(k)[0] += t.Val.data2;
        } else {
          entry(k)[0] = *t.Val.ptr * t.Val.data + t.Val.data2;
        }
        break;
      }
      case mu::cmVARPOW2:
      case mu::cmVARPOW3:
      case mu::cmVARPOW4: {
        const std::size_t k = push_variable(t.Val.ptr);
        if (varies_[k] != 0) return false;
        const double v = *t.Val.ptr;
        entry(k)[0] = t.Cmd == mu::cmVARPOW2   ? v * v
                      : t.Cmd == mu::cmVARPOW3 ? v * v * v
                                               : v * v * v * v;
        break;
      }
      case mu::cmADD:
      case mu::cmSUB: {
        if (depth < 2) return false;
        double* a = entry(depth - 2);
        const double* b = entry(depth - 1);
        for (std::size_t i = 0; i < width; ++i)
          a[i] = t.Cmd == mu::cmADD ? a[i] + b[i] : a[i] - b[i];
        varies_[depth - 2] = static_cast<char>(varies_[depth - 2] | varies_[depth - 1]);
        --depth;
        break;
      }
      case mu::cmMUL: {
        if (depth < 2) return false;
        const std::size_t a = depth - 2;
        const std::size_t b = depth - 1;
        if (varies_[a] != 0 && varies_[b] != 0) return false;  // a product of two varying parts
        if (varies_[a] == 0) {  // constant * form: the form, scaled, takes the lower entry
          const double factor = entry(a)[0];
          std::copy_n(entry(b), width, entry(a));
          varies_[a] = varies_[b];
          scale(a, factor);
        } else {
          scale(a, entry(b)[0]);
        }
        --depth;
        break;
      }
      case mu::cmDIV: {
        if (depth < 2 || varies_[depth - 1] != 0) return false;  // by a varying part
        const double divisor = entry(depth - 1)[0];
        double* a = entry(depth - 2);
        for (std::size_t i = 0; i < width; ++i) a[i] /= divisor;
        --depth;
        break;
      }
      case mu::cmPOW: {
        if (depth < 2 || varies_[depth - 2] != 0 || varies_[depth - 1] != 0) return false;
        entry(depth - 2)[0] = std::pow(entry(depth - 2)[0], entry(depth - 1)[0]);
        --depth;
        break;
      }
      case mu::cmFUNC: {
        const auto raw = reinterpret_cast<void*>(t.Fun.cb._pRawFun);
        const int argc = t.Fun.argc;
        if (argc == 1 && depth >= 1 && t.Fun.cb._pUserData == nullptr &&
            (raw == reinterpret_cast<void*>(&unary_minus) ||
             raw == reinterpret_cast<void*>(&unary_plus))) {
          if (raw == reinterpret_cast<void*>(&unary_minus)) scale(depth - 1, -1.0);
          break;
        }
        // A function of parameters only is a constant; argc 0 (a random number) never is.
        if (argc < 1 || argc > 3 || depth < static_cast<std::size_t>(argc)) return false;
        const std::size_t first = depth - static_cast<std::size_t>(argc);
        for (std::size_t k = first; k < depth; ++k) {
          if (varies_[k] != 0) return false;
        }
        const double x = entry(first)[0];
        const double value =
            argc == 1   ? t.Fun.cb.call_fun<1>(x)
            : argc == 2 ? t.Fun.cb.call_fun<2>(x, entry(first + 1)[0])
                        : t.Fun.cb.call_fun<3>(x, entry(first + 1)[0], entry(first + 2)[0]);
        depth = first;
        push(value);
        break;
      }
      default: return false;  // comparisons, logic, if-then-else, bulk and string functions
    }
  }
  if (depth != 1) return false;
  constant_ = entry(0)[0];
  std::copy_n(entry(0) + 1, varying_.size(), coefficients_.begin());
  return true;
}

}  // namespace simverify::simulation::diagram::detail
