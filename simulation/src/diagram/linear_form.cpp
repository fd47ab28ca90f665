// Folding an affine diagram into one affine map per run (linear_form.hpp): the blocks in
// evaluation order turn their inputs' forms into their outputs' forms, the stateful blocks
// theirs into their derivatives' forms; the nonzero coefficients of the derivatives (and
// outputs) become rows evaluated in one pass.
#include "linear_form.hpp"

#include "plan.hpp"

#include <algorithm>

namespace simverify::simulation::diagram::detail {

AffineForms::AffineForms(const Plan& plan, const Workspace& ws)
    : ws_(&ws),
      slots_(plan.slot_count),
      states_(static_cast<int>(plan.info.states.size())),
      first_inport_(1 + plan.info.states.size()),
      columns_(first_inport_ + 2 * plan.inports.size() + 1),
      forms_(static_cast<std::size_t>(slots_ + states_ + 1) * columns_, 0.0),
      known_(static_cast<std::size_t>(slots_), 0) {}

std::span<const double> AffineForms::input(const Block& b, std::size_t k, int element) const {
  return row(b.in_slot[k] + element);
}

std::span<double> AffineForms::output(const Block& b, std::size_t k, int element) {
  const std::span<double> form = row(b.out_slot[k] + element);
  std::fill(form.begin(), form.end(), 0.0);
  return form;
}

std::span<double> AffineForms::derivative(const Block& b, int state) {
  const std::span<double> form = row(derivative_row(b.state_offset + state));
  std::fill(form.begin(), form.end(), 0.0);
  return form;
}

std::span<const double> AffineForms::variable(const double* address) const {
  if (address == &ws_->t) return row(time_row());
  return row(static_cast<int>(address - ws_->s.data()));
}

const BlockScratch* AffineForms::scratch(const Block& b) const {
  return ws_->scratch_of[static_cast<std::size_t>(b.index)];
}

double AffineForms::parameter(int index) {
  if (recording_) read_.emplace_back(index, reader_needed_);
  return ws_->p[static_cast<std::size_t>(index)];
}

void AffineForms::add(std::span<double> to, double factor, std::span<const double> form) {
  for (std::size_t i = 0; i < to.size(); ++i) to[i] += factor * form[i];
}

bool AffineForms::fold(const Plan& plan) {
  std::fill(forms_.begin(), forms_.end(), 0.0);
  std::fill(known_.begin(), known_.end(), 0);
  row(time_row())[time()] = 1.0;
  const auto known = [&](int slot, int width) {
    return std::all_of(known_.begin() + slot, known_.begin() + slot + width,
                       [](char k) { return k != 0; });
  };
  const auto inputs_known = [&](const Block& b, bool feedthrough_only) {
    for (std::size_t k = 0; k < b.inputs.size(); ++k) {
      if (feedthrough_only && !b.inputs[k].feedthrough) continue;
      if (!known(b.in_slot[k], b.inputs[k].width)) return false;
    }
    return true;
  };
  for (const Block* b : plan.straight) {
    reader_needed_ = needed_.empty() || needed_[static_cast<std::size_t>(b->index)] != 0;
    if (!inputs_known(*b, true) || !b->affine_output(*this)) continue;
    for (std::size_t k = 0; k < b->outputs.size(); ++k) {
      std::fill_n(known_.begin() + b->out_slot[k], b->outputs[k].width, 1);
    }
  }
  outputs_known_ = std::all_of(plan.output_slots.begin(), plan.output_slots.end(),
                               [&](int slot) { return known(slot, 1); });
  const bool affine = std::all_of(plan.stateful.begin(), plan.stateful.end(), [&](int i) {
    const Block& b = *plan.blocks[static_cast<std::size_t>(i)];
    reader_needed_ = true;
    return inputs_known(b, false) && b.affine_derivative(*this);
  });
  recording_ = false;  // the parameters read are the first fold's
  return affine;
}

std::vector<int> AffineForms::parameters_read(bool derivatives_only) const {
  std::vector<int> read;
  for (const auto& [index, needed] : read_) {
    if (needed || !derivatives_only) read.push_back(index);
  }
  std::sort(read.begin(), read.end());
  read.erase(std::unique(read.begin(), read.end()), read.end());
  return read;
}

void AffineMap::reserve(std::size_t rows, std::size_t columns) {
  rows_.reserve(rows);
  terms_.reserve(rows * columns);
  copies_.reserve(rows);
}

void AffineMap::clear() {
  rows_.clear();
  terms_.clear();
  copies_.clear();
}

void AffineMap::append(std::size_t out, std::span<const double> form, std::size_t states) {
  const auto nonzero =
      std::count_if(form.begin() + 1, form.end(), [](double a) { return a != 0.0; });
  const auto unit = std::find(form.begin() + 1, form.begin() + 1 + static_cast<long>(states), 1.0);
  if (form[0] == 0.0 && nonzero == 1 && unit != form.begin() + 1 + static_cast<long>(states)) {
    copies_.push_back(
        {static_cast<std::uint32_t>(out), static_cast<std::uint32_t>(unit - form.begin() - 1)});
    return;
  }
  Row r{form[0], static_cast<std::uint32_t>(out), 0, 0};
  for (std::size_t c = 1; c < form.size(); ++c) {
    if (c == 1 + states) r.states_end = static_cast<std::uint32_t>(terms_.size());
    if (form[c] != 0.0) {
      const std::size_t column = c <= states ? c - 1 : c - 1 - states;
      terms_.push_back({form[c], static_cast<std::uint32_t>(column)});
    }
  }
  if (form.size() <= 1 + states) r.states_end = static_cast<std::uint32_t>(terms_.size());
  r.end = static_cast<std::uint32_t>(terms_.size());
  rows_.push_back(r);
}

void AffineMap::finish(std::size_t states, std::size_t variables) {
  // The variables after the last one a row reads are left out of the dense rows (t, mostly).
  std::size_t read = 0;
  for (const Row& r : rows_) {
    for (std::size_t k = r.states_end; k < r.end; ++k) {
      read = std::max<std::size_t>(read, terms_[k].column + 1);
    }
  }
  if (read > variables || rows_.size() + copies_.size() != states ||
      !DenseRows::fits(rows_.size(), states, read)) {
    dense_.clear();
    return;
  }
  dense_.reset(rows_.size(), states, read);
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    const Row& r = rows_[i];
    dense_.set_row(i, r.out, r.constant);
    for (std::size_t k = i == 0 ? 0 : rows_[i - 1].end; k < r.states_end; ++k) {
      dense_.set_state(i, terms_[k].column, terms_[k].coefficient);
    }
    for (std::size_t k = r.states_end; k < r.end; ++k) {
      dense_.set_variable(i, terms_[k].column, terms_[k].coefficient);
    }
  }
  for (std::size_t k = 0; k < copies_.size(); ++k) {
    dense_.set_copy(k, copies_[k].out, copies_[k].state);
  }
  dense_.select();
}

LinearForm::LinearForm(const Plan& plan, Workspace& ws)
    : parameters_(ws.p.size()),
      inports_(plan.inports.size()),
      forms_(plan, ws),
      folded_p_(ws.p),
      v_(forms_.columns() - forms_.inport(0, false), 0.0) {
  // The blocks the state derivatives read: the plan's path to them and the stateful blocks.
  std::vector<char> needed(plan.blocks.size(), 0);
  for (const Block* b : plan.for_derivatives) needed[static_cast<std::size_t>(b->index)] = 1;
  for (const int i : plan.stateful) needed[static_cast<std::size_t>(i)] = 1;
  forms_.set_needed(needed);
  if (plan.straight.empty() || !forms_.fold(plan)) return;
  derivatives_ = true;
  outputs_ = forms_.outputs_known() && !plan.output_slots.empty();
  // The function blocks' expressions read parameters too (folded in their scratch).
  std::vector<int> all = forms_.parameters_read(false);
  std::vector<int> for_derivatives = forms_.parameters_read(true);
  for (const auto& b : plan.blocks) {
    const auto& read = b->parameters_by_address;
    all.insert(all.end(), read.begin(), read.end());
    if (needed[static_cast<std::size_t>(b->index)] != 0) {
      for_derivatives.insert(for_derivatives.end(), read.begin(), read.end());
    }
  }
  all_reads_ = reads_of(std::move(all), folded_p_.size());
  derivative_reads_ = reads_of(std::move(for_derivatives), folded_p_.size());
  hot_window_ = derivative_reads_.window;
  derivative_map_.reserve(plan.info.states.size(), forms_.columns());
  output_map_.reserve(plan.output_slots.size(), forms_.columns());
  fold(plan);
}

void LinearForm::fold(const Plan& plan) {
  // The structure does not depend on the parameters' values: the fold stays affine.
  (void)forms_.fold(plan);
  const std::size_t states = plan.info.states.size();
  derivative_map_.clear();
  for (std::size_t i = 0; i < states; ++i) {
    derivative_map_.append(i, forms_.derivative_form(static_cast<int>(i)), states);
  }
  derivative_map_.finish(states, v_.size());
  // The hot path: v is the run's u (one inport at most, t not read). The kernel's shape
  // depends on which coefficients folded to zero, so it is asked after every fold.
  const DenseRows& dense = derivative_map_.dense_rows();
  const bool hot = hot_window_ != kNoWindow && derivative_map_.dense() &&
                   dense.has_input_kernel() && inports_ <= 1 && dense.variables() <= 2 * inports_;
  hot_parameters_ = hot ? parameters_ : kNoHotPath;
  if (hot_window_ != kNoWindow) {
    std::copy_n(folded_p_.begin() + static_cast<long>(hot_window_), kWindow,
                window_values_.begin());
  }
  if (!outputs_) return;
  output_map_.clear();
  for (std::size_t j = 0; j < plan.output_slots.size(); ++j) {
    output_map_.append(j, forms_.slot_form(plan.output_slots[j]), states);
  }
  output_map_.finish(states, v_.size());
}

LinearForm::Reads LinearForm::reads_of(std::vector<int> read, std::size_t parameters) {
  std::sort(read.begin(), read.end());
  read.erase(std::unique(read.begin(), read.end()), read.end());
  Reads reads;
  for (const int i : read) {
    const auto k = static_cast<std::size_t>(i);
    if (!reads.runs.empty() && reads.runs.back().first + reads.runs.back().count == k) {
      ++reads.runs.back().count;
    } else {
      reads.runs.push_back({k, 1});
    }
  }
  if (!read.empty() && parameters >= kWindow) {
    // The window starting at the first read, moved back to end at the last parameter.
    const std::size_t first =
        std::min(static_cast<std::size_t>(read.front()), parameters - kWindow);
    if (static_cast<std::size_t>(read.back()) < first + kWindow) reads.window = first;
  }
  return reads;
}

void LinearForm::fold(const Plan& plan, Workspace& ws, std::span<const double> p) {
  std::copy(p.begin(), p.end(), ws.p.begin());
  std::copy(p.begin(), p.end(), folded_p_.begin());
  for (const auto& scratch : ws.scratch) scratch->parameters_changed();
  fold(plan);
}

}  // namespace simverify::simulation::diagram::detail
