// Independent trainings of one fit, run side by side: the R noise-aware runs
// of R/pooling.R (each a full Algorithm 1 or 2, train() in trainer.h) on up to
// `threads` threads while the calling thread reports progress and polls for
// interrupts. Plain C++17, no R headers.
//
// Run r is determined by its key alone (initial weights from stream 0 of the
// key, the training's draws from stream 1) and by its partition, so the
// weights of every run are bit-identical for any number of threads, and equal
// to those of the runs trained one after another.
#ifndef PGBB_CORE_RUNS_H
#define PGBB_CORE_RUNS_H

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

#include "blocking.h"
#include "design.h"
#include "generator.h"
#include "parallel.h"
#include "rng.h"
#include "trainer.h"

namespace pgbb {

/// @brief Called on the calling thread while runs train: (iterations done over
/// all runs, their total); returning true stops every run (Interrupted).
using RunsMonitor = std::function<bool(int64_t, int64_t)>;

/// @brief Threads for the subset pass of run r when `runs` runs share
/// `threads` threads, `min(threads, runs)` runs at a time: the runs of the full
/// rounds get `threads / at_a_time` each, and the runs of a last, partial
/// round share the threads the idle workers leave (5 runs on 2 threads: runs
/// 0-3 one thread each, run 4 two). Never changes a result (trainer.h).
inline int run_subset_threads(int r, int runs, int threads) {
  const int at_a_time = std::max(1, std::min(threads, runs));
  const int tail = runs % at_a_time;
  if (tail != 0 && r >= runs - tail) return std::max(1, threads / tail);
  return std::max(1, threads / at_a_time);
}

/// @brief Trains gens[r] from keys[r] on partition parts[r] (parts of size 1:
/// one partition shared by every run) for r = 0..R-1, min(threads, R) runs at
/// a time. x (n x p, column-major) and y (length n, or nullptr) are read only.
/// A run's row store is built by the worker that trains it, so at most
/// min(threads, R) stores exist at once (one in all for a shared partition).
/// With `scores` given, (*scores)[r] holds run r's TailScores (stationarity.h).
template <class Scalar, class Loss>
void train_runs(const Loss& loss, const double* x, const double* y, int64_t n, int p,
                const std::vector<BlockPartition>& parts, std::vector<Generator<Scalar>>& gens,
                const std::vector<Key>& keys, const TrainConfig& cfg, int threads,
                const RunsMonitor& monitor = RunsMonitor(), std::vector<TailScores>* scores = nullptr) {
  const int R = static_cast<int>(gens.size());
  if (R < 1 || static_cast<int>(keys.size()) != R)
    throw std::invalid_argument("train_runs: one key per generator");
  if (parts.size() != 1 && static_cast<int>(parts.size()) != R)
    throw std::invalid_argument("train_runs: one partition, or one per run");
  if (threads < 1) throw std::invalid_argument("train_runs: 'threads' must be at least 1");
  std::unique_ptr<RowStore<Scalar>> shared;
  if (parts.size() == 1) shared.reset(new RowStore<Scalar>(x, y, n, p, &parts[0]));
  std::vector<std::atomic<int64_t>> done(static_cast<size_t>(R));
  for (auto& d : done) d.store(0);
  const int64_t total = static_cast<int64_t>(R) * cfg.iterations;
  if (scores) scores->assign(static_cast<size_t>(R), TailScores());

  supervised_units(
      R, std::min(threads, R),
      [&](int64_t unit, const std::atomic<bool>& stop) {
        const int r = static_cast<int>(unit);
        const BlockPartition& part = parts.size() == 1 ? parts[0] : parts[static_cast<size_t>(r)];
        std::unique_ptr<RowStore<Scalar>> own;
        if (!shared) own.reset(new RowStore<Scalar>(x, y, n, p, &part));
        TrainConfig run_cfg = cfg;
        run_cfg.threads = run_subset_threads(r, R, threads);
        Rng init_rng = Rng::stream(keys[static_cast<size_t>(r)], 0);
        Rng train_rng = Rng::stream(keys[static_cast<size_t>(r)], 1);
        Generator<Scalar>& gen = gens[static_cast<size_t>(r)];
        gen.init(init_rng);
        train(loss, shared ? *shared : *own, part, gen, run_cfg, train_rng, [&](int it, int) {
          done[static_cast<size_t>(r)].store(it);
          return stop.load();
        }, scores ? &(*scores)[static_cast<size_t>(r)] : nullptr);
      },
      [&] {
        if (!monitor) return false;
        int64_t sum = 0;
        for (const auto& d : done) sum += d.load();
        return monitor(sum, total);
      });
}

/// @brief Evaluates every run's generator at the same inputs (n_in x m,
/// column-major) into out[r] (d x m), the runs on up to `threads` threads
/// (parallel_units); a run's values do not depend on which thread computes
/// them. The generators' workspaces are their own, so no two threads share one.
template <class Scalar>
void evaluate_runs(std::vector<Generator<Scalar>>& gens, const double* input, int64_t m,
                   std::vector<std::vector<double>>& out, int threads) {
  if (out.size() != gens.size()) throw std::invalid_argument("evaluate_runs: one output per generator");
  for (size_t r = 0; r < gens.size(); ++r) {
    if (out[r].size() != static_cast<size_t>(m) * gens[r].n_out())
      throw std::invalid_argument("evaluate_runs: output of the wrong size");
    gens[r].reserve(256);  // evaluate()'s batch, allocated here rather than on a worker
  }
  parallel_units(static_cast<int64_t>(gens.size()), threads, [&](int64_t r, int) {
    gens[static_cast<size_t>(r)].evaluate(input, m, out[static_cast<size_t>(r)].data());
  });
}

}  // namespace pgbb

#endif  // PGBB_CORE_RUNS_H
