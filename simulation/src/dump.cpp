// Def 4.8: data dumps of a replication as CSV and JSON (formats in simulation.hpp).
#include <simverify/simulation/simulation.hpp>

#include <simverify/core/write_file.hpp>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace simverify::simulation {
namespace {

std::string number(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "NaN" : (v > 0 ? "Infinity" : "-Infinity");
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

std::string json_number(double v) {
  return std::isfinite(v) ? number(v) : "null";  // JSON has no NaN or infinity
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

std::string json_vector(const Vector& v) {
  std::string out = "[";
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    if (i > 0) out += ',';
    out += json_number(v[i]);
  }
  out += ']';
  return out;
}

const char* status_name(RunStatus s) {
  switch (s) {
    case RunStatus::completed: return "completed";
    case RunStatus::terminated_by_event: return "terminated_by_event";
    case RunStatus::zeno: return "zeno";
  }
  return "completed";
}

}  // namespace

void write_csv(const Replication& replication, const std::filesystem::path& path) {
  std::ostringstream out;
  out << "run,t";
  for (const auto& name : replication.state_names) out << ',' << name;
  out << '\n';
  for (std::size_t j = 0; j < replication.runs.size(); ++j) {
    const Trajectory& tr = replication.runs[j].trajectory;
    for (std::size_t i = 0; i < tr.size(); ++i) {
      out << j << ',' << number(tr.time[i]);
      for (Eigen::Index k = 0; k < tr.states[i].size(); ++k) out << ',' << number(tr.states[i][k]);
      out << '\n';
    }
  }
  core::write_atomically(path, out.str());
}

void write_json(const Replication& replication, const std::filesystem::path& path) {
  std::ostringstream out;
  out << "{\"format\":\"simverify.replication/1\",\"model\":" << json_string(replication.model)
      << ",\"states\":[";
  for (std::size_t k = 0; k < replication.state_names.size(); ++k) {
    out << (k ? "," : "") << json_string(replication.state_names[k]);
  }
  out << "],\"runs\":[";
  for (std::size_t j = 0; j < replication.runs.size(); ++j) {
    const SimulatorResult& r = replication.runs[j];
    out << (j ? "," : "") << "{\"run\":" << j << ",\"status\":\"" << status_name(r.status)
        << "\",\"message\":" << json_string(r.message) << ",\"t_end\":" << json_number(r.t_end)
        << ",\"x_end\":" << json_vector(r.x_end) << ",\"time\":[";
    for (std::size_t i = 0; i < r.trajectory.size(); ++i) {
      out << (i ? "," : "") << json_number(r.trajectory.time[i]);
    }
    out << "],\"states\":[";
    for (std::size_t i = 0; i < r.trajectory.size(); ++i) {
      out << (i ? "," : "") << json_vector(r.trajectory.states[i]);
    }
    out << "],\"events\":[";
    for (std::size_t e = 0; e < r.events.size(); ++e) {
      out << (e ? "," : "") << "{\"time\":" << json_number(r.events[e].time)
          << ",\"index\":" << r.events[e].index << ",\"name\":" << json_string(r.events[e].name)
          << "}";
    }
    const RunStatistics& s = r.statistics;
    out << "],\"statistics\":{\"steps\":" << s.steps << ",\"rejected_steps\":" << s.rejected_steps
        << ",\"f_evals\":" << s.rhs_evaluations << ",\"jacobian_evals\":" << s.jacobian_evaluations
        << ",\"lu_factorizations\":" << s.lu_factorizations << "}}";
  }
  out << "]}\n";
  core::write_atomically(path, out.str());
}

}  // namespace simverify::simulation
