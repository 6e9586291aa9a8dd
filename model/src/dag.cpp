#include "mmvram/model/dag.hpp"

#include <boost/graph/topological_sort.hpp>

#include <algorithm>
#include <iterator>
#include <map>
#include <ostream>
#include <vector>

namespace mmv {

std::int64_t dag::add(dag_vertex v, std::span<const std::int64_t> producers) {
  const auto id = boost::add_vertex(std::move(v), g_);
  for (auto p : producers)
    if (p >= 0) boost::add_edge(static_cast<std::size_t>(p), id, g_);
  return static_cast<std::int64_t>(id);
}

std::int64_t dag::longest_path() const {
  std::vector<std::size_t> order;
  boost::topological_sort(g_, std::back_inserter(order));  // reverse topological order
  std::vector<std::int64_t> finish(boost::num_vertices(g_), 0);
  std::int64_t best = 0;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    std::int64_t start = 0;
    for (auto [e, end] = boost::in_edges(*it, g_); e != end; ++e)
      start = std::max(start, finish[boost::source(*e, g_)]);
    finish[*it] = start + (g_[*it].where == unit::scalar ? 0 : 1);
    best = std::max(best, finish[*it]);
  }
  return best;
}

void dag::write_dot(std::ostream& out) const {
  out << "digraph mmvram {\n  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=10];\n";
  std::map<std::string, std::vector<std::size_t>> by_region;
  for (std::size_t v = 0; v < boost::num_vertices(g_); ++v) by_region[g_[v].region].push_back(v);
  int cluster = 0;
  for (const auto& [region, vertices] : by_region) {
    const bool boxed = !region.empty();
    if (boxed) out << "  subgraph cluster_" << cluster++ << " {\n    label=\"" << region << "\";\n";
    for (auto v : vertices) {
      const auto& d = g_[v];
      const char* shape = d.where == unit::mmu ? "box" : d.where == unit::vcu ? "ellipse" : "note";
      const char* color = d.where == unit::mmu ? "#f4a261" : d.where == unit::vcu ? "#8ecae6" : "#e9ecef";
      out << "    n" << v << " [label=\"" << d.op << "\\n" << to_string(d.where) << " m=" << d.length
          << "\", shape=" << shape << ", style=filled, fillcolor=\"" << color << "\"];\n";
    }
    if (boxed) out << "  }\n";
  }
  for (auto [e, end] = boost::edges(g_); e != end; ++e)
    out << "  n" << boost::source(*e, g_) << " -> n" << boost::target(*e, g_) << ";\n";
  out << "}\n";
}

}  // namespace mmv
