// The time model: instruction classes, predictions from records against hand-computed values on
// a small profile (serial, along the DAG and queued behind the host) and the fit recovering
// known constants, with and without a knee at the L2 size.
#include "model_test_util.hpp"
#include "time_model_test_util.hpp"
#include "mmvram/prediction/fit.hpp"
#include "mmvram/prediction/time_model.hpp"

using mt::small_profile;


TEST_CASE("predictions from a ledger equal hand-computed times on a small profile", "[time]") {
  mmv::machine_config c;
  c.s = 4;
  mmv::machine m(c);
  const auto x = m.load<mmv::word>(std::vector<mmv::word>(16, 1));         // free
  const auto a = m.add(x, x);                                            // stream: 1000 + 0.5 * 8 * (32 + 16) = 1192
  const auto b = m.add(x, mmv::word{1});                                 // independent of a: 1000 + 0.5 * 8 * 32 = 1128
  std::vector<mmv::word> ones(16, 1);
  const auto w = m.load<mmv::word>(ones);
  const auto y = m.mmu(a, w);  // 2000 + 0.25 * 8 * (16 + 16 + 16) + 0.01 * 64 = 2096.64
  (void)b, (void)y;
  const auto p = small_profile();
  const auto& r = m.costs().records();
  CHECK(mmv::instruction_class(r[0]) == "load");
  CHECK(mmv::instruction_class(r[4]) == "mmu-word/s4");
  CHECK(mmv::predict_record_ns(p, r[0]) == 0);
  CHECK(mmv::predict_record_ns(p, r[1]) == Approx(1192));
  CHECK(mmv::predict_record_ns(p, r[2]) == Approx(1128));
  CHECK(mmv::predict_record_ns(p, r[4]) == Approx(2096.64));
  const auto t = mmv::predict_time(p, r);
  CHECK(t.serial_ns == Approx(1192 + 1128 + 2096.64));
  CHECK(t.dag_ns == Approx(1192 + 2096.64));  // b runs beside a; y waits for a only
  // An s the profile was not calibrated at takes the smallest calibrated s' >= s, else the largest.
  auto at = [&](std::int64_t s) {
    auto rec = r[4];
    rec.sizes.s = s;
    return mmv::predict_record_ns(p, rec) - 96 - 0.64;
  };
  CHECK(at(3) == Approx(2000));
  CHECK(at(12) == Approx(9000));
  CHECK(at(64) == Approx(9000));
  // With MMU shapes an uncalibrated s scales its class's byte and work terms by its time per word
  // over the calibrated s's, each less the class's latency: s = 3 against s = 4 (latency 2000 ns),
  // (5000 - 2000) / 1000 over (4000 - 2000) / 1000 = 1.5; the work (0.64 ns) counted at s' = 4, as
  // the factor compares whole per-word times: 0.64 * 4 / 3.
  auto shaped = p;
  shaped.mmu_shapes = {{"mmu-word", 3, 1000, 5000}, {"mmu-word", 4, 1000, 4000}};
  CHECK(mmv::mmu_shape_factor(shaped, "mmu-word", 3, 4) == Approx(1.5));
  auto rec3 = r[4];
  rec3.sizes.s = 3;
  CHECK(mmv::predict_record_ns(shaped, rec3) == Approx(2000 + 1.5 * (96 + 0.64 * 4 / 3)));
  // A one-row product of s = 3 (no one-row class) takes the multi-row class of s' = 4 unshaped:
  // the sweep times multi-row products only.
  auto row3 = rec3;
  row3.length = 3;
  REQUIRE(mmv::instruction_class(row3) == "mmu-word/s3/row");
  CHECK(mmv::predict_record_ns(shaped, row3) == Approx(2096.64));
  CHECK(mmv::predict_record_ns(shaped, r[4]) == Approx(2096.64));  // a calibrated s keeps its class
  // No sweep point for s, for s', or of that format: the factor is 1.
  CHECK(mmv::mmu_shape_factor(shaped, "mmu-word", 5, 16) == 1);
  CHECK(mmv::mmu_shape_factor(shaped, "mmu-real", 3, 4) == 1);
  auto rec12 = r[4];
  rec12.sizes.s = 12;
  CHECK(mmv::predict_record_ns(shaped, rec12) == Approx(9000 + 96 + 0.64));
  // A point of s' that is mostly latency: the plain ratio of the times per word (5000 / 2100);
  // so for a point of s (2100 / 4000), where (2100 - 2000) / 1000 is under a tenth of 2100 / 1000.
  shaped.mmu_shapes[1].measured_ns = 2100;
  CHECK(mmv::mmu_shape_factor(shaped, "mmu-word", 3, 4) == Approx(5000.0 / 2100.0));
  shaped.mmu_shapes[0].measured_ns = 2100, shaped.mmu_shapes[1].measured_ns = 4000;
  CHECK(mmv::mmu_shape_factor(shaped, "mmu-word", 3, 4) == Approx(2100.0 / 4000.0));
  // Without latencies the records' bandwidth and work terms decide the DAG time: they share the
  // memory system, so a and b do not overlap (192 + 128 + 96.64 > the path a, y: 192 + 96.64).
  auto fast = p;
  fast.classes["stream"].latency_ns = 0, fast.classes["mmu-word/s4"].latency_ns = 0;
  const auto f = mmv::predict_time(fast, r);
  CHECK(f.serial_ns == Approx(192 + 128 + 96.64));
  CHECK(f.dag_ns == Approx(192 + 128 + 96.64));
}

TEST_CASE("concurrent classes put a floor under the DAG prediction: each record's time when overlapping", "[time]") {
  mmv::machine_config c;
  c.s = 4;
  mmv::machine m(c);
  const auto x = m.load<mmv::word>(std::vector<mmv::word>(16, 1));
  const auto a = m.add(x, x);              // 384 bytes
  const auto b = m.add(x, mmv::word{1});   // 256 bytes, independent of a
  const auto y = m.mmu(a, m.load<mmv::word>(std::vector<mmv::word>(16, 1)));  // 384 bytes, 64 MACs, s = 4
  (void)b, (void)y;
  const auto& r = m.costs().records();
  auto p = small_profile();
  const double path = 1192 + 2096.64;  // a then y; b beside a
  CHECK(mmv::predict_time(p, r).dag_ns == Approx(path));
  // Overlapped instructions that still take 900 ns each (a graph node's dispatch): 3 * 900 < path.
  p.classes[mmv::concurrent_class_prefix + "stream"] = {900, 0, 0, 0, 0, 1};
  p.classes[mmv::concurrent_class_prefix + "mmu-word/s16"] = {900, 0, 0.01, 0, 0, 1};  // s = 4 falls back to s16
  CHECK(mmv::predict_time(p, r).dag_ns == Approx(path));  // 2700.64 < path: the path decides
  p.classes[mmv::concurrent_class_prefix + "stream"].latency_ns = 1500;
  CHECK(mmv::predict_time(p, r).dag_ns == Approx(1500 + 1500 + 900 + 0.64));
  // The serial and queued predictions ignore them.
  CHECK(mmv::predict_time(p, r).serial_ns == Approx(1192 + 1128 + 2096.64));
  // A profile with concurrent classes but none for a record's class is refused.
  p.classes.erase(mmv::concurrent_class_prefix + "mmu-word/s16");
  CHECK_THROWS_AS(mmv::predict_time(p, r), mmv::model_error);
}

TEST_CASE("the queued prediction overlaps the host's issue with the device's work", "[time]") {
  mmv::machine_config c;
  c.s = 4;
  mmv::machine m(c);
  const auto x = m.load<mmv::word>(std::vector<mmv::word>(16, 1));
  const auto a = m.add(x, x);            // 1192 ns in all
  const auto b = m.add(x, mmv::word{1});  // 1128 ns
  const auto y = m.mmu(a, m.load<mmv::word>(std::vector<mmv::word>(16, 1)));  // 2096.64 ns
  (void)b, (void)y;
  auto p = small_profile();
  const auto& r = m.costs().records();
  // No host times: the device always waits, queued = serial.
  CHECK(mmv::predict_time(p, r).queued_ns == Approx(1192 + 1128 + 2096.64));
  // A slow host (600 ns per VCU issue, 1500 per MMU issue):
  // a issued at 600, done 1792; b issued at 1200, done 2920; y issued at 2700, done 5016.64.
  p.classes["stream"].host_ns = 600, p.classes["mmu-word/s4"].host_ns = 1500;
  CHECK(mmv::predict_time(p, r).queued_ns == Approx(5016.64));
  // A fast host (100 ns per issue): the device is the bottleneck after the first issue.
  p.classes["stream"].host_ns = 100, p.classes["mmu-word/s4"].host_ns = 100;
  const auto t = mmv::predict_time(p, r);
  CHECK(t.queued_ns == Approx(100 + 1192 + 1128 + 2096.64));
  CHECK(t.serial_ns == Approx(1192 + 1128 + 2096.64));  // serial and DAG do not change
  CHECK(t.dag_ns == Approx(1192 + 2096.64));
  // A host far slower than the VCU: the VCU records wait for their issue, the MMU for the VCU.
  // a issued at 5000, done 6192; b issued at 10000, done 11128; y issued at 10100, done 13224.64.
  p.classes["stream"].host_ns = 5000;
  CHECK(mmv::predict_time(p, r).queued_ns == Approx(13224.64));
}

TEST_CASE("the queued prediction makes the host wait for the device before a compress", "[time]") {
  mmv::machine_config c;
  c.s = 4;
  mmv::machine m(c);
  std::vector<mmv::word> ones(16, 1), ranks(16);
  for (int i = 0; i < 16; ++i) ranks[static_cast<std::size_t>(i)] = i;
  const auto x = m.load<mmv::word>(ones);
  const auto a = m.add(x, x);  // stream: 1192 ns
  (void)m.compress(a, m.load<mmv::word>(ones), m.load<mmv::word>(ranks));  // compress: 5000 ns
  auto p = small_profile();
  p.classes["compress"] = {5000, 0, 0, 0, 0, 1};
  p.classes["stream"].host_ns = 100, p.classes["compress"].host_ns = 200;
  // a issued at 100, done 1292; the host waits until 1292, issues the compress until 1492: done 6492
  // (without the wait it would be issued at 300 and done at 6292).
  CHECK(mmv::predict_time(p, m.costs().records()).queued_ns == Approx(6492));
}

TEST_CASE("a real result adds the executor's inf/nan check: one more streaming read of it", "[time]") {
  mmv::machine_config c;
  c.s = 4;
  c.format = mmv::number_format::float64;
  mmv::machine m(c);
  const auto x = m.load<mmv::real>(std::vector<mmv::real>(16, 1.0));
  const auto a = m.add(x, x);                 // 1192 ns, then its check: 1000 + 0.5 * 8 * 16 = 1064
  const auto b = m.add(x, mmv::real{1});      // 1128 ns + 1064
  const auto y = m.mmu(a, m.load<mmv::real>(std::vector<mmv::real>(16, 1.0)));  // 2096.64 ns + 1064
  (void)b, (void)y;
  auto p = small_profile();
  p.classes["mmu-real/s4"] = p.classes["mmu-word/s4"];
  const auto& r = m.costs().records();
  CHECK(r[1].real_output);
  CHECK(r[3].where == mmv::unit::scalar);  // a load: no check is priced for it
  auto t = mmv::predict_time(p, r);
  CHECK(t.serial_ns == Approx(1192 + 1128 + 2096.64 + 3 * 1064));
  CHECK(t.queued_ns == Approx(t.serial_ns));  // no host times: the device never waits
  // The checks queue in program order after their results: a's ends at 2256, b's at 3320, y's
  // (y done at 1192 + 2096.64) at 4384.
  CHECK(t.dag_ns == Approx(4384));
  // A graph profile's mmu-real constants hold the product's check already.
  p.context = "graph";
  t = mmv::predict_time(p, r);
  CHECK(t.serial_ns == Approx(1192 + 1128 + 2096.64 + 2 * 1064));
  // Word results are not checked.
  mmv::machine w(mmv::machine_config{});
  (void)w.add(w.load<mmv::word>(std::vector<mmv::word>(16, 1)), mmv::word{1});
  CHECK_FALSE(w.costs().records()[1].real_output);
}

TEST_CASE("an MMU product is priced by its operands, words or reals, whatever the run's format", "[time]") {
  mmv::machine_config c;
  c.s = 4;
  c.format = mmv::number_format::float64;
  c.word_bits = 64;
  mmv::machine m(c);
  const auto flags = m.load<mmv::word>(std::vector<mmv::word>(16, 1));
  const auto x = m.load<mmv::real>(std::vector<mmv::real>(16, 1.0));
  (void)m.mmu(flags, m.load<mmv::word>(std::vector<mmv::word>(16, 1)));  // record 3, after its weights' load
  (void)m.mmu(x, m.load<mmv::real>(std::vector<mmv::real>(16, 1.0)));    // record 5
  const auto& r = m.costs().records();
  CHECK(mmv::instruction_class(r[3]) == "mmu-word/s4");
  CHECK(mmv::instruction_class(r[5]) == "mmu-real/s4");
  auto p = small_profile();
  CHECK(mmv::predict_record_ns(p, r[3]) == Approx(2096.64));  // the word class, as in an integer run
  CHECK_THROWS_AS(mmv::predict_record_ns(p, r[5]), mmv::model_error);  // no mmu-real class
  p.classes["mmu-real/s4"] = {500, 0.125, 0, 0, 0, 1};
  CHECK(mmv::predict_record_ns(p, r[5]) == Approx(500 + 0.125 * 8 * 48));
  CHECK(mmv::predict_record_ns(p, r[3]) == Approx(2096.64));
}

TEST_CASE("a product of one row is a class of its own, with the multi-row class as its fallback", "[time]") {
  mmv::machine_config c;
  c.s = 4;
  mmv::machine m(c);
  const auto w = m.load<mmv::word>(std::vector<mmv::word>(16, 1));
  (void)m.mmu(m.load<mmv::word>(std::vector<mmv::word>(4, 1)), w);  // record 2: one row of s = 4
  (void)m.mmu(m.load<mmv::word>(std::vector<mmv::word>(8, 1)), w);  // record 4: two rows
  const auto& r = m.costs().records();
  CHECK(mmv::instruction_class(r[2]) == "mmu-word/s4/row");
  CHECK(mmv::instruction_class(r[4]) == "mmu-word/s4");
  auto p = small_profile();
  // Without one-row classes (older profiles): the fitted line of its s, 2000 + 0.25 * 8 * 24 + 0.01 * 16.
  CHECK(mmv::predict_record_ns(p, r[2]) == Approx(2048.16));
  // A one-row class of another s is taken before the multi-row line (smallest s' >= s).
  p.classes["mmu-word/s16/row"] = {7000, 0, 0, 0, 0, 1};
  CHECK(mmv::predict_record_ns(p, r[2]) == Approx(7000));
  p.classes["mmu-word/s4/row"] = {5000, 0, 0, 0, 0, 1};
  CHECK(mmv::predict_record_ns(p, r[2]) == Approx(5000));
  CHECK(mmv::predict_record_ns(p, r[4]) == Approx(2000 + 0.25 * 8 * 32 + 0.01 * 32));  // two rows (8 + 16 + 8 words): the line
  // A one-row class is not mistaken for the multi-row class of an s (its name ends in /row).
  p.classes.erase("mmu-word/s4");
  p.classes.erase("mmu-word/s16");
  CHECK_THROWS_AS(mmv::predict_record_ns(p, r[4]), mmv::model_error);
  // fit_profile prices a one-point class at its measured time: latency only.
  mmv::device_profile f;
  mmv::fit_profile(f, {{"mmu-word/s4/row", "mmu", 4, 4, 192, 16, 6000, 0, 900}});
  CHECK(f.classes.at("mmu-word/s4/row").latency_ns == Approx(6000));
  CHECK(f.classes.at("mmu-word/s4/row").ns_per_byte == 0);
}

TEST_CASE("the fit recovers known constants from exact points", "[time]") {
  std::vector<double> bytes, work, ns;
  for (double m = 256; m <= (1 << 24); m *= 4) {
    bytes.push_back(24 * m), work.push_back(16 * m);
    ns.push_back(4000 + 0.0003 * 24 * m + 0.002 * 16 * m);
  }
  const auto with_work = mmv::fit_class(bytes, work, ns, false, 0);
  CHECK(with_work.ns_per_op == 0);
  CHECK(with_work.points == static_cast<int>(ns.size()));
  const auto m = mmv::fit_class(bytes, std::vector<double>(ns.size(), 0.0), ns, false, 0);
  CHECK(m.latency_ns == Approx(4000).epsilon(1e-6));
  CHECK(m.ns_per_byte == Approx(0.0003 + 0.002 * 16 / 24).epsilon(1e-6));
  CHECK(m.residual_max < 1e-9);
  // A negative constant is dropped: points with no latency at all.
  std::vector<double> b2{1e3, 1e4, 1e5}, w2{0, 0, 0}, t2{10, 100, 1000};
  const auto z = mmv::fit_class(b2, w2, t2, false, 0);
  CHECK(z.latency_ns >= 0);
  CHECK(z.ns_per_byte == Approx(0.01).epsilon(1e-6));
  // fit_profile gives each class the median host issue time of its points (0 where none was kept).
  mmv::device_profile p;
  mmv::fit_profile(p, {{"stream", "add", 256, 16, 1e3, 0, 10, 0, 300}, {"stream", "add", 1024, 16, 1e4, 0, 100, 0, 100},
                       {"stream", "add", 4096, 16, 1e5, 0, 1000, 0, 200}, {"gather", "gather", 256, 16, 1e3, 0, 10, 0, 0},
                       {"gather", "gather", 1024, 16, 1e4, 0, 100, 0, 0}, {"gather", "gather", 4096, 16, 1e5, 0, 1000, 0, 0}});
  CHECK(p.classes.at("stream").host_ns == 200);
  CHECK(p.classes.at("gather").host_ns == 0);
}

TEST_CASE("the fit recovers a knee's two bandwidths from exact points on both sides of it", "[time]") {
  const double knee = 50.0 * (1 << 20);
  const auto exact = [&](double b) { return 5000 + 0.0002 * std::min(b, knee) + 0.00035 * std::max(0.0, b - knee); };
  std::vector<double> bytes, zero, ns;
  for (double m = 256; m <= (1 << 26); m *= 4) {
    for (const double words : {2.0, 3.0}) {
      bytes.push_back(8 * words * m), zero.push_back(0);
      ns.push_back(exact(bytes.back()));
    }
  }
  const auto m = mmv::fit_class(bytes, zero, ns, false, knee);
  CHECK(m.latency_ns == Approx(5000).epsilon(1e-6));
  CHECK(m.ns_per_byte == Approx(0.0002).epsilon(1e-6));
  CHECK(m.ns_per_byte_beyond_l2 == Approx(0.00035).epsilon(1e-6));
  CHECK(m.residual_max < 1e-9);
  // Without the knee the same points take one bandwidth, and miss.
  const auto line = mmv::fit_class(bytes, zero, ns, false, 0);
  CHECK(line.ns_per_byte_beyond_l2 == line.ns_per_byte);
  CHECK(line.residual_max > 0.05);
  // No point past the knee: nothing to fit there, one bandwidth for all bytes.
  std::vector<double> b_in, z_in, t_in;
  for (std::size_t i = 0; i < bytes.size(); ++i)
    if (bytes[i] <= knee) b_in.push_back(bytes[i]), z_in.push_back(0), t_in.push_back(ns[i]);
  const auto below = mmv::fit_class(b_in, z_in, t_in, false, knee);
  CHECK(below.ns_per_byte == Approx(0.0002).epsilon(1e-6));
  CHECK(below.ns_per_byte_beyond_l2 == below.ns_per_byte);
  // A negative bandwidth past the knee is dropped: one bandwidth again, never bytes for free.
  std::vector<double> t_neg;
  for (const double b : bytes) t_neg.push_back(5000 + 0.0004 * std::min(b, knee) - 0.00001 * std::max(0.0, b - knee));
  // (As a hinge; the step, which fits these points better, keeps a rate of its own, never below 0.)
  const auto flat = mmv::fit_class(bytes, zero, t_neg, false, knee);
  CHECK((flat.step_at_knee || flat.ns_per_byte_beyond_l2 == flat.ns_per_byte));
  CHECK(flat.ns_per_byte_beyond_l2 >= 0);
  CHECK(flat.ns_per_byte > 0);
  // Points from a step (every byte of an instruction past the knee at the second rate) are fitted
  // as a step, exactly; the hinge's points above stay a hinge.
  std::vector<double> t_step;
  for (const double b : bytes) t_step.push_back(5000 + (b > knee ? 0.0004 * b : 0.0002 * b));
  const auto stepped = mmv::fit_class(bytes, zero, t_step, false, knee);
  CHECK(stepped.step_at_knee);
  CHECK(stepped.ns_per_byte_beyond_l2 == Approx(0.0004).epsilon(1e-6));
  CHECK(stepped.residual_max < 1e-9);
  CHECK(!mmv::fit_class(bytes, zero, ns, false, knee).step_at_knee);
  // fit_profile fits at the profile's knee and prices each point with it.
  mmv::device_profile p;
  p.l2_bytes = static_cast<std::int64_t>(knee);
  std::vector<mmv::training_point> pts;
  for (std::size_t i = 0; i < bytes.size(); ++i) pts.push_back({"stream", "add", 1, 16, bytes[i], 0, ns[i], 0, 0});
  mmv::fit_profile(p, pts);
  CHECK(p.classes.at("stream").ns_per_byte_beyond_l2 == Approx(0.00035).epsilon(1e-6));
  CHECK(p.points.back().predicted_ns == Approx(ns.back()).epsilon(1e-9));
}

TEST_CASE("a record across the knee is priced at both bandwidths; without a knee as one line", "[time]") {
  mmv::machine_config c;
  c.s = 4;
  mmv::machine m(c);
  const auto x = m.load<mmv::word>(std::vector<mmv::word>(16, 1));
  (void)m.add(x, x);  // stream, 8 * 48 = 384 bytes
  const auto& r = m.costs().records();
  auto p = small_profile();  // stream: 1000 + 0.5 ns per byte
  CHECK(mmv::predict_record_ns(p, r[1]) == 1000 + 0.5 * 384);  // no knee: the one line, exactly
  p.classes["stream"].ns_per_byte_beyond_l2 = 2;
  CHECK(mmv::predict_record_ns(p, r[1]) == 1000 + 0.5 * 384);  // unused without a knee
  p.l2_bytes = 100;
  CHECK(mmv::predict_record_ns(p, r[1]) == Approx(1000 + 0.5 * 100 + 2 * 284));  // 1618
  // The DAG's shared term holds the same byte term, without the latency.
  p.classes["stream"].latency_ns = 0;
  CHECK(mmv::predict_time(p, r).dag_ns == Approx(0.5 * 100 + 2 * 284));
  p.l2_bytes = 384;  // at the knee: all bytes below it
  CHECK(mmv::predict_record_ns(p, r[1]) == Approx(0.5 * 384));
}

TEST_CASE("fit_profile finds the knee in sixteenths of the L2, and a refit keeps it", "[time]") {
  const std::int64_t cache = 16 << 20;
  for (const std::int64_t j : {4, 7, 11, 16}) {
    const double knee = static_cast<double>(cache / 16 * j);
    mmv::device_profile p;
    p.l2_bytes = cache;  // as calibrate sets it: the device's L2, before the fit
    std::vector<mmv::training_point> pts;
    std::vector<double> sizes{1 << 14, 1 << 18, 1 << 20, 1.5 * cache, 2.0 * cache};
    for (int k = 1; k <= 16; ++k)  // just below and just above every candidate: only the true one fits exactly
      sizes.push_back(0.98 * static_cast<double>(cache / 16 * k)), sizes.push_back(1.02 * static_cast<double>(cache / 16 * k));
    for (const double b : sizes) {
      const double words = b / 24;
      const double ns = 3000 + (b > knee ? 0.0004 * b : 0.0002 * b);  // a step at the knee
      pts.push_back({"stream", "add", static_cast<std::int64_t>(words), 16, b, 0, ns, 0, 0});
    }
    mmv::fit_profile(p, pts);
    CAPTURE(j);
    CHECK(p.l2_bytes == cache / 16 * j);
    CHECK(p.l2_cache_bytes == cache);
    CHECK(p.classes.at("stream").step_at_knee);
    CHECK(p.classes.at("stream").residual_max < 1e-9);
    mmv::fit_profile(p, p.points);  // a refit tries the same candidates: the same knee
    CHECK(p.l2_bytes == cache / 16 * j);
  }
  mmv::device_profile none;  // no L2: no knee
  mmv::fit_profile(none, {{"stream", "add", 4096, 16, 98304, 0, 5000, 0, 0}});
  CHECK(none.l2_bytes == 0);
}
