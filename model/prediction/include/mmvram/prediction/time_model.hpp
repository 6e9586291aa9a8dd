// Predicting device time from the ledger. A device profile gives, per instruction class, a small
// model t = latency + bytes / bandwidth + work / rate (bytes past the device's L2 size at a
// bandwidth of their own), fitted on single instructions only
// (`mmvram calibrate`). A run's records then predict its time three ways: serial (instructions
// one after another: times add), DAG (independent instructions overlap their latencies: the
// critical path, or the summed bandwidth and work terms where those are longer) and
// queued (one stream fed by one host thread: the host's issue time overlaps the device's work).
#pragma once
#include "mmvram/model/ledger.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace mmv {

// A graph profile's classes timed on the dag executor, their instructions overlapping on its
// branch streams, are named with this prefix ("concurrent:stream", ...): the time each takes when
// it runs beside others of its kind, a floor under the DAG prediction.
inline const std::string concurrent_class_prefix = "concurrent:";
// The suffix of the one-row MMU classes (see instruction_class).
inline const std::string one_row_suffix = "/row";

// One class's fitted constants and how well they fit their own training points.
struct class_time_model {
  double latency_ns = 0;      // per instruction
  double ns_per_byte = 0;     // 1 / bandwidth (bytes = 8 * words read and written) up to the L2 size
  double ns_per_op = 0;       // 1 / rate of the class's work (MMU multiply-adds, REVSPEC's m*s, ...)
  double residual_median = 0; // median of |predicted - measured| / measured over the training points
  double residual_max = 0;
  int points = 0;
  // Median host time to issue one instruction of the class (0: not calibrated). Calibration
  // timed each instruction on an idle device, so the class time above holds the part of this
  // issue that follows the start event; the queued prediction adds the whole issue before it,
  // an overlap of a few microseconds per instruction that it does not subtract.
  double host_ns = 0;
  // 1 / bandwidth of the bytes past the knee (device_profile::l2_bytes; unused without one).
  double ns_per_byte_beyond_l2 = 0;
  // The knee's shape: false, a hinge (only the bytes past it at ns_per_byte_beyond_l2); true, a
  // step (an instruction that moves more than the L2 holds moves all its bytes at that rate).
  bool step_at_knee = false;
  // The byte term of `bytes` on a device whose knee is `l2_bytes` (0: none): ns_per_byte up to
  // the knee, ns_per_byte_beyond_l2 past it (for every byte when step_at_knee). An instruction
  // within the knee whose reads include `far_bytes` from past the L2 (operands evicted before
  // their read: far_read_bytes) moves those at the slower of the two rates.
  double bytes_ns(double bytes, double l2_bytes, double far_bytes = 0) const {
    if (far_bytes > 0 && l2_bytes > 0 && bytes <= l2_bytes)
      return ns_per_byte * (bytes - far_bytes) + std::max(ns_per_byte, ns_per_byte_beyond_l2) * far_bytes;
    if (step_at_knee && l2_bytes > 0 && bytes > l2_bytes) return ns_per_byte_beyond_l2 * bytes;
    const double below = l2_bytes > 0 ? std::min(bytes, l2_bytes) : bytes;
    return ns_per_byte * below + ns_per_byte_beyond_l2 * (bytes - below);
  }
  // The class's time for one instruction of this size: latency + byte term + ns_per_op * work.
  double predict_ns(double bytes, double work, double l2_bytes) const {
    return latency_ns + bytes_ns(bytes, l2_bytes) + ns_per_op * work;
  }
};

// One single-instruction timing the profile was fitted on (kept in the profile for plots and tests).
struct training_point {
  std::string cls, op;
  std::int64_t m = 0;
  int s = 0;
  double bytes = 0, work = 0, measured_ns = 0, predicted_ns = 0;
  double host_ns = 0;  // the host's issue time of the timed instruction (0: not recorded)
};

// One MMU product timed at tile size s on a fixed number of words (the shape sweep of
// `mmvram calibrate`): how the shape of s alone changes a product's speed.
struct mmu_shape_point {
  std::string format;  // "mmu-word" or "mmu-real"
  int s = 0;
  std::int64_t m = 0;  // words of the product (whole rows of s)
  double measured_ns = 0;
};

// A chain of different instructions inside one graph against the same instructions each chained
// with itself (`mmvram calibrate --executor graph`), per node: whether a node that follows a node
// of another instruction waits longer than the class times (chained with themselves) hold. Kept
// in the profile as measured; the model prices no switch (docs/prediction.md says why).
struct node_switch_point {
  std::int64_t m = 0;           // words of each instruction
  double mixed_ns = 0;          // per node, the instructions taking turns
  double own_ns = 0;            // per node, the mean of each instruction chained with itself
};

// A device profile (JSON, schema "mmvram-profile/1").
struct device_profile {
  std::string device;   // GPU name
  std::string date;     // of the calibration
  std::string backend;  // "cuda"
  // How the instructions were timed: interleaved or back-to-back (the in-order executor: its
  // latencies hold the host's issue), or graph (replayed inside CUDA graphs: device-only
  // constants, whose serial and DAG predictions are those of the graph and dag executors).
  std::string context = "interleaved";
  double sm_clock_mhz = 0, memory_clock_mhz = 0;
  // The knee of every class's byte term and the capacity the far bytes of a run are held against
  // (far_read_bytes): the part of the L2 that keeps what was touched last, in bytes, fitted by
  // fit_profile (0: no knee, one bandwidth, no far bytes).
  std::int64_t l2_bytes = 0;
  // The device's L2 size (cudaDeviceProp::l2CacheSize), the largest knee fit_profile tries
  // (0 or absent in a file: l2_bytes).
  std::int64_t l2_cache_bytes = 0;
  int bytes_per_word = 8;
  std::map<std::string, class_time_model> classes;
  std::vector<training_point> points;  // the single-instruction timings it was fitted on
  // Every s from 2 to the largest calibrated one, per format, on the same words (empty in older
  // profiles): the factor a multi-row product of an uncalibrated s takes on its class's terms.
  std::vector<mmu_shape_point> mmu_shapes;
  std::vector<node_switch_point> node_switches;  // a graph profile's; empty in in-order ones
};

// The class of a record: "stream" (element-wise, constants, shift, resize, gather-strided),
// "gather", "scatter", "compress", "revspec", "block-prefix", "mmu-word/sS" or "mmu-real/sS"
// (the MMU by its operands, words or reals, whatever the run's format: a word product converts
// its operands around the DGEMM; and by its tile size s: how s fills the hardware's matrix shape
// changes its speed), "load" (scalar transfers, free in the model). A product of one row (m <= s
// words) is a class of its own, "mmu-word/sS/row" or "mmu-real/sS/row": the library runs it as
// a matrix-vector product, whose time is latency, off the multi-row products' fitted line.
std::string instruction_class(const instruction_record& r);
// The work term a class is charged by: multiply-adds for the MMU, m*s for REVSPEC, m*k for the
// block prefixes, 0 otherwise (their time is bytes and latency).
double class_work(const instruction_record& r);
// Bytes an instruction moves on a device that stores `bytes_per_word` per word.
double record_bytes(const instruction_record& r, int bytes_per_word);

// Predicted device time of one record (0 for loads: the scalar unit is free). An MMU record of
// an s the profile was not calibrated at uses the smallest calibrated s' >= s (else the largest):
// a multi-row product, where the profile's shape sweep holds s and s', takes that class's byte
// term and its work term counted at s', both times mmu_shape_factor (else the class's terms at
// its own bytes and work); a one-row product, on a profile without one-row classes, its format's
// multi-row class unscaled; its operands read at the rate below the knee, as in its class's
// calibration. Throws model_error when the profile has no model for the record's class.
double predict_record_ns(const device_profile& p, const instruction_record& r);
// How much slower per word than at the calibrated s' a multi-row product of `format` runs at s:
// from the shape sweep, (t(s) - L) / m(s) over (t(s') - L) / m(s'), L the latency of the class
// `format`/sS'; where either difference is under a tenth of its point's time, the plain ratio of
// t / m (so f is at most 10 times that ratio). 1 when the sweep lacks either s or the class is missing.
double mmu_shape_factor(const device_profile& p, const std::string& format, std::int64_t s, std::int64_t s_calibrated);

// Every record with a real result (instruction_record::real_output, not a load) is followed by
// the executor's inf/nan check, priced as the stream class reading the result once (with its
// host issue in the queued prediction; on a queue of its own, in program order, in the DAG
// one); a graph profile's mmu-real constants already hold the check of a product.
struct time_prediction {
  double serial_ns = 0;  // sum over the MMU and VCU records
  // The longest path through the records' inputs, weighted by their times, or the sum of all
  // records' bandwidth and work terms (latencies overlap, the memory system and units are
  // shared), whichever is longer; with a profile that has concurrent classes, also at least the
  // sum of every record's concurrent class time (what overlapping cannot save: the graph's
  // dispatch of each node as well as its bytes).
  double dag_ns = 0;
  // One host thread issues the records in order, each taking its class's host_ns, into one
  // in-order device queue; a record takes its class time on the device, starting once the host
  // has issued it and the record before it is done; before a compress the host waits for the
  // device (it reads a count back). The time until the last is done: the sum of the host's
  // issue times where the host is slower, serial_ns where the device is.
  double queued_ns = 0;
};
// Bytes of each record's reads that come from past the L2 (0 for every record without a knee):
// the arrays that the records write, touched by their writer and by each reader in ledger
// order, held in an L2 of p.l2_bytes with least-recently-touched eviction. An operand of B bytes
// read after D bytes of other arrays were touched since its last touch has the part
// clamp((D + B - l2) / B, 0, 1) evicted; a record's far bytes are its words read times the
// evicted share of its operands' bytes.
std::vector<double> far_read_bytes(const device_profile& p, const std::vector<instruction_record>& records);
// Each record's predicted time in its run: predict_record_ns with the record's far_read_bytes
// at the slower rate (class_time_model::bytes_ns). Throws model_error as predict_record_ns.
std::vector<double> predict_record_times(const device_profile& p, const std::vector<instruction_record>& records);
// Predicts a run's time from its records (ledger order; inputs point backwards), each record
// priced by predict_record_times. Throws model_error when a time is not finite (constants so
// large that the sums overflow).
time_prediction predict_time(const device_profile& p, const std::vector<instruction_record>& records);

}  // namespace mmv
