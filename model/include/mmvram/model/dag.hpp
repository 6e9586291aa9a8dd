// The operation DAG as a Boost.Graph: one vertex per instruction, an edge from the producer
// of each input. Depth = longest path where MMU/VCU vertices weigh one step and scalar-unit
// vertices weigh nothing. Exportable as Graphviz DOT for teaching.
#pragma once
#include "mmvram/model/types.hpp"

#include <boost/graph/adjacency_list.hpp>

#include <iosfwd>
#include <span>
#include <string>

namespace mmv {

struct dag_vertex {
  std::string op;
  unit where = unit::scalar;
  std::int64_t length = 0;
  std::string region;
};

using dag_graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, dag_vertex>;

class dag {
 public:
  // Adds a vertex for one instruction and edges from the given producer vertices (-1 = none).
  std::int64_t add(dag_vertex v, std::span<const std::int64_t> producers);
  // Longest path in steps, computed on the graph by a topological sweep.
  std::int64_t longest_path() const;
  // Writes the graph in Graphviz DOT: MMU boxes, VCU ellipses, scalar notes, clustered by region.
  void write_dot(std::ostream& out) const;
  const dag_graph& graph() const { return g_; }

 private:
  dag_graph g_;
};

}  // namespace mmv
