#include "host/validation/effective_trials.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "host/engine/worker_threads.h"
#include "host/validation/counter_random.h"

namespace btforge {

namespace {

constexpr int kMaxPasses = 100;
// Combinations a worker classifies or assigns at a time (run_tiles).
constexpr std::uint64_t kStreamTile = 4096;

enum class StreamKind : unsigned char { Varying, Flat, NotFinite };

// Note [Effective number of trials]: the sample's Gram matrix and ONC's
// distances, m x m in row-major order.
struct SampleMatrix {
    std::span<const double> gram;
    std::vector<double> distance;
    int size = 0;

    double g(int a, int b) const { return gram[static_cast<std::size_t>(a) * size + b]; }
    double d(int a, int b) const { return distance[static_cast<std::size_t>(a) * size + b]; }
};

// Mean / population deviation of a set of silhouettes, numpy's quotient
// where the deviation is 0 (Note [Effective number of trials]).
double quality_of(const std::vector<double>& values) {
    if (values.empty()) return 0.0;
    double mean = 0.0;
    for (double v : values) mean += v;
    mean /= static_cast<double>(values.size());
    double squares = 0.0;
    for (double v : values) squares += (v - mean) * (v - mean);
    const double deviation = std::sqrt(squares / static_cast<double>(values.size()));
    if (deviation > 0.0) return mean / deviation;
    return mean > 0.0 ? HUGE_VAL : mean < 0.0 ? -HUGE_VAL : 0.0;
}

// Rousseeuw's silhouette of each point of `points` (indices into the
// sample) labelled 0..k-1, with ONC's distance; 0 in a cluster of one.
std::vector<double> silhouettes(const SampleMatrix& sample, const std::vector<int>& points,
                                const std::vector<int>& labels, int k) {
    const std::size_t m = points.size();
    std::vector<std::uint64_t> sizes(static_cast<std::size_t>(k), 0);
    for (int label : labels) ++sizes[static_cast<std::size_t>(label)];
    std::vector<double> out(m, 0.0);
    std::vector<double> sums(static_cast<std::size_t>(k));
    for (std::size_t i = 0; i < m; ++i) {
        const int own = labels[i];
        if (sizes[static_cast<std::size_t>(own)] < 2) continue;
        std::fill(sums.begin(), sums.end(), 0.0);
        for (std::size_t j = 0; j < m; ++j) {
            if (j != i) sums[static_cast<std::size_t>(labels[j])] += sample.d(points[i], points[j]);
        }
        const double a = sums[static_cast<std::size_t>(own)] / static_cast<double>(sizes[static_cast<std::size_t>(own)] - 1);
        double b = HUGE_VAL;
        for (int c = 0; c < k; ++c) {
            if (c == own || sizes[static_cast<std::size_t>(c)] == 0) continue;
            b = std::min(b, sums[static_cast<std::size_t>(c)] / static_cast<double>(sizes[static_cast<std::size_t>(c)]));
        }
        if (b == HUGE_VAL) continue;  // one cluster
        const double scale = std::max(a, b);
        out[i] = scale > 0.0 ? (b - a) / scale : 0.0;
    }
    return out;
}

// Kernel k-means of `points` into at most k clusters (Note [Effective
// number of trials]); the labels, 0..k'-1 (k' < k only when the points
// coincide).
std::vector<int> kernel_k_means(const SampleMatrix& sample, const std::vector<int>& points, int k,
                                std::uint64_t key, int* clusters) {
    const std::size_t m = points.size();
    std::uint64_t counter = 0;
    const auto draw = [&] { return counter_draw(key, counter++); };
    const auto g = [&](std::size_t i, std::size_t j) { return sample.g(points[i], points[j]); };
    // k-means++ seeding.
    std::vector<std::size_t> centers{static_cast<std::size_t>(high_product(draw(), m))};
    const auto squared = [&](std::size_t i, std::size_t c) { return std::max(0.0, g(i, i) + g(c, c) - 2.0 * g(i, c)); };
    std::vector<double> nearest(m);
    for (std::size_t i = 0; i < m; ++i) nearest[i] = squared(i, centers[0]);
    while (static_cast<int>(centers.size()) < k) {
        double total = 0.0;
        for (double d : nearest) total += d;
        if (!(total > 0.0)) break;  // every point sits on a center
        const double target = uniform_of_draw(draw()) * total;
        double cumulative = 0.0;
        std::size_t chosen = m;
        for (std::size_t i = 0; i < m; ++i) {
            if (nearest[i] <= 0.0) continue;
            cumulative += nearest[i];
            chosen = i;
            if (cumulative > target) break;
        }
        centers.push_back(chosen);
        for (std::size_t i = 0; i < m; ++i) nearest[i] = std::min(nearest[i], squared(i, chosen));
    }
    const std::size_t kk = centers.size();
    *clusters = static_cast<int>(kk);
    std::vector<int> labels(m, 0);
    for (std::size_t i = 0; i < m; ++i) {
        double best = squared(i, centers[0]);
        for (std::size_t c = 1; c < kk; ++c) {
            const double d = squared(i, centers[c]);
            if (d < best) {
                best = d;
                labels[i] = static_cast<int>(c);
            }
        }
    }
    // Lloyd's passes in the kernel: within[i * kk + c] = sum of G_ij over
    // the members j of c, kept up to date as points move.
    std::vector<double> within(m * kk, 0.0);
    for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = 0; j < m; ++j) within[i * kk + static_cast<std::size_t>(labels[j])] += g(i, j);
    }
    std::vector<std::uint64_t> sizes(kk);
    std::vector<double> self(kk);
    const auto recount = [&] {
        std::fill(sizes.begin(), sizes.end(), 0);
        std::fill(self.begin(), self.end(), 0.0);
        for (std::size_t i = 0; i < m; ++i) {
            ++sizes[static_cast<std::size_t>(labels[i])];
            self[static_cast<std::size_t>(labels[i])] += within[i * kk + static_cast<std::size_t>(labels[i])];
        }
    };
    const auto distance = [&](std::size_t i, std::size_t c) {
        const double n = static_cast<double>(sizes[c]);
        return g(i, i) - 2.0 * within[i * kk + c] / n + self[c] / (n * n);
    };
    const auto move = [&](std::size_t j, int to) {
        const std::size_t from = static_cast<std::size_t>(labels[j]);
        for (std::size_t i = 0; i < m; ++i) {
            const double gij = g(i, j);
            within[i * kk + from] -= gij;
            within[i * kk + static_cast<std::size_t>(to)] += gij;
        }
        labels[j] = to;
    };
    recount();
    std::vector<int> next(m);
    for (int pass = 0; pass < kMaxPasses; ++pass) {
        bool moved = false;
        for (std::size_t i = 0; i < m; ++i) {
            const std::size_t own = static_cast<std::size_t>(labels[i]);
            double best = distance(i, own);
            next[i] = labels[i];
            for (std::size_t c = 0; c < kk; ++c) {
                if (c == own || sizes[c] == 0) continue;
                const double d = distance(i, c);
                if (d < best) {
                    best = d;
                    next[i] = static_cast<int>(c);
                }
            }
        }
        for (std::size_t j = 0; j < m; ++j) {
            if (next[j] != labels[j]) {
                move(j, next[j]);
                moved = true;
            }
        }
        recount();
        // An emptied cluster takes the point farthest from its own
        // cluster's mean, of a cluster with more than one.
        for (std::size_t c = 0; c < kk; ++c) {
            if (sizes[c] != 0) continue;
            std::size_t far = m;
            double farthest = -HUGE_VAL;
            for (std::size_t i = 0; i < m; ++i) {
                const std::size_t own = static_cast<std::size_t>(labels[i]);
                if (sizes[own] < 2) continue;
                const double d = distance(i, own);
                if (d > farthest) {
                    farthest = d;
                    far = i;
                }
            }
            if (far == m) break;
            move(far, static_cast<int>(c));
            recount();
            moved = true;
        }
        if (!moved) break;
    }
    return labels;
}

struct Labelling {
    std::vector<int> labels;
    int clusters = 1;
    std::vector<double> silhouettes;
    double quality = 0.0;
};

std::vector<double> cluster_qualities(const Labelling& l) {
    std::vector<std::vector<double>> members(static_cast<std::size_t>(l.clusters));
    for (std::size_t i = 0; i < l.labels.size(); ++i) members[static_cast<std::size_t>(l.labels[i])].push_back(l.silhouettes[i]);
    std::vector<double> q;
    for (const auto& s : members) q.push_back(quality_of(s));
    return q;
}

double mean_of(const std::vector<double>& values) {
    double sum = 0.0;
    for (double v : values) sum += v;
    return values.empty() ? 0.0 : sum / static_cast<double>(values.size());
}

Labelling onc_base(const SampleMatrix& sample, const std::vector<int>& points, int depth,
                   const TrialClusterOptions& options) {
    const int m = static_cast<int>(points.size());
    const int max_k = std::min(options.max_clusters, m - 1);
    Labelling best;
    best.labels.assign(points.size(), 0);
    best.silhouettes.assign(points.size(), 0.0);
    if (max_k < 2) return best;
    const int per_restart = max_k - 1;
    const std::uint64_t jobs = static_cast<std::uint64_t>(options.restarts) * static_cast<std::uint64_t>(per_restart);
    std::vector<Labelling> tried(jobs);
    const std::uint64_t depth_key = counter_draw(splitmix64_finalize(~options.seed), static_cast<std::uint64_t>(depth));
    run_tiles(options.threads, jobs, 1, [&](std::uint64_t job, std::uint64_t, std::uint64_t) {
        const int k = 2 + static_cast<int>(job % static_cast<std::uint64_t>(per_restart));
        Labelling& l = tried[job];
        l.labels = kernel_k_means(sample, points, k, counter_draw(depth_key, job), &l.clusters);
        l.silhouettes = silhouettes(sample, points, l.labels, l.clusters);
        l.quality = quality_of(l.silhouettes);
    });
    // Restarts outer, k inner; the first of the highest quality.
    for (std::uint64_t job = 0; job < jobs; ++job) {
        if (job == 0 || tried[job].quality > best.quality) best = std::move(tried[job]);
    }
    return best;
}

Labelling onc_top(const SampleMatrix& sample, const std::vector<int>& points, int depth,
                  const TrialClusterOptions& options) {
    Labelling base = onc_base(sample, points, depth, options);
    if (base.clusters < 2) return base;
    const std::vector<double> quality = cluster_qualities(base);
    const double mean_quality = mean_of(quality);
    std::vector<char> redo(quality.size(), 0);
    int redone = 0;
    for (std::size_t c = 0; c < quality.size(); ++c) {
        if (quality[c] < mean_quality) {
            redo[c] = 1;
            ++redone;
        }
    }
    if (redone <= 1) return base;
    std::vector<int> again;
    std::vector<std::size_t> again_at;
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (redo[static_cast<std::size_t>(base.labels[i])] != 0) {
            again.push_back(points[i]);
            again_at.push_back(i);
        }
    }
    if (again.size() < 3) return base;
    const Labelling inner = onc_top(sample, again, depth + 1, options);
    // The clusters kept, renumbered in order, then the new ones.
    Labelling joined;
    std::vector<int> renumbered(quality.size(), -1);
    int next = 0;
    for (std::size_t c = 0; c < quality.size(); ++c) {
        if (redo[c] == 0) renumbered[c] = next++;
    }
    joined.labels.resize(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) joined.labels[i] = renumbered[static_cast<std::size_t>(base.labels[i])];
    for (std::size_t a = 0; a < again_at.size(); ++a) joined.labels[again_at[a]] = next + inner.labels[a];
    joined.clusters = next + inner.clusters;
    joined.silhouettes = silhouettes(sample, points, joined.labels, joined.clusters);
    joined.quality = quality_of(joined.silhouettes);
    return mean_of(cluster_qualities(joined)) > mean_quality ? joined : base;
}

SampleMatrix sample_matrix(std::span<const double> gram, int m) {
    SampleMatrix sample{gram, std::vector<double>(static_cast<std::size_t>(m) * m, 0.0), m};
    for (int a = 0; a < m; ++a) {
        for (int b = 0; b < m; ++b) {
            if (a != b) sample.distance[static_cast<std::size_t>(a) * m + b] = std::sqrt(std::max(0.0, (1.0 - sample.g(a, b)) / 2.0));
        }
    }
    return sample;
}

// A stream centred and scaled to length 1 (the caller knows it varies).
void unit_stream(const double* r, int t, double* x) {
    double mean = 0.0;
    for (int i = 0; i < t; ++i) mean += r[i];
    mean /= t;
    double squares = 0.0;
    for (int i = 0; i < t; ++i) {
        x[i] = r[i] - mean;
        squares += x[i] * x[i];
    }
    const double norm = std::sqrt(squares);
    for (int i = 0; i < t; ++i) x[i] /= norm;
}

StreamKind kind_of(const double* r, int t) {
    bool varies = false;
    for (int i = 0; i < t; ++i) {
        if (!std::isfinite(r[i])) return StreamKind::NotFinite;
        varies = varies || r[i] != r[0];
    }
    return varies ? StreamKind::Varying : StreamKind::Flat;
}

std::uint64_t stream_hash(const double* r, int t) {
    std::uint64_t h = 0;
    for (int i = 0; i < t; ++i) {
        std::uint64_t bits;
        std::memcpy(&bits, &r[i], sizeof bits);
        h = splitmix64_finalize(h ^ bits) + kGoldenGamma;
    }
    return h;
}

}  // namespace

OncLabelling optimal_number_of_clusters(std::span<const double> gram, int m, const TrialClusterOptions& options) {
    if (m < 0 || gram.size() != static_cast<std::size_t>(m) * static_cast<std::size_t>(m)) {
        throw std::invalid_argument("optimal_number_of_clusters: the Gram matrix is not " + std::to_string(m) + " x " +
                                    std::to_string(m));
    }
    OncLabelling out;
    if (m < 3) {
        for (int i = 0; i < m; ++i) out.labels.push_back(i);
        out.clusters = m;
        return out;
    }
    const SampleMatrix sample = sample_matrix(gram, m);
    std::vector<int> points(static_cast<std::size_t>(m));
    for (int i = 0; i < m; ++i) points[static_cast<std::size_t>(i)] = i;
    Labelling l = onc_top(sample, points, 0, options);
    out.labels = std::move(l.labels);
    out.clusters = l.clusters;
    out.quality = l.quality;
    return out;
}

TrialClusters cluster_trials(std::span<const double> streams, std::uint64_t count, int observations,
                             const TrialClusterOptions& options) {
    if (observations < 1 || streams.size() != count * static_cast<std::uint64_t>(observations)) {
        throw std::invalid_argument("cluster_trials: " + std::to_string(streams.size()) + " returns are not " +
                                    std::to_string(count) + " streams of " + std::to_string(observations));
    }
    if (options.sample < 3 || options.sample > kMaxTrialClusterSample || options.max_clusters < 2 ||
        options.restarts < 1) {
        throw std::invalid_argument("cluster_trials: a sample of 3.." + std::to_string(kMaxTrialClusterSample) +
                                    ", at least 2 clusters and 1 restart");
    }
    const auto start = std::chrono::steady_clock::now();
    const std::size_t t = static_cast<std::size_t>(observations);
    const auto row = [&](std::uint64_t n) { return streams.data() + n * t; };
    TrialClusters out;
    out.combinations = count;
    out.threads = options.threads;
    // 1. What each stream is.
    std::vector<StreamKind> kind(count);
    run_tiles(options.threads, count, kStreamTile, [&](std::uint64_t, std::uint64_t first, std::uint64_t end) {
        for (std::uint64_t n = first; n < end; ++n) kind[n] = kind_of(row(n), observations);
    });
    // 2. The sample: distinct varying streams in the order of their draws.
    const std::uint64_t sample_key = splitmix64_finalize(~options.seed);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> order;
    for (std::uint64_t n = 0; n < count; ++n) {
        if (kind[n] == StreamKind::Varying) order.emplace_back(counter_draw(sample_key, n), n);
    }
    std::sort(order.begin(), order.end());
    std::vector<std::uint64_t> sampled;
    std::unordered_map<std::uint64_t, std::vector<std::uint64_t>> seen;
    for (const auto& [draw, n] : order) {
        if (sampled.size() == static_cast<std::size_t>(options.sample)) break;
        std::vector<std::uint64_t>& same_hash = seen[stream_hash(row(n), observations)];
        const bool repeated = std::any_of(same_hash.begin(), same_hash.end(), [&](std::uint64_t other) {
            return std::memcmp(row(other), row(n), t * sizeof(double)) == 0;
        });
        if (repeated) continue;
        same_hash.push_back(n);
        sampled.push_back(n);
    }
    std::vector<std::pair<std::uint64_t, std::uint64_t>>().swap(order);
    const int m = static_cast<int>(sampled.size());
    out.sampled = sampled.size();
    // 3. ONC on the sample.
    std::vector<double> unit(static_cast<std::size_t>(m) * t);
    for (int a = 0; a < m; ++a) unit_stream(row(sampled[static_cast<std::size_t>(a)]), observations, &unit[static_cast<std::size_t>(a) * t]);
    std::vector<double> gram(static_cast<std::size_t>(m) * static_cast<std::size_t>(m));
    run_tiles(options.threads, static_cast<std::uint64_t>(m), 1, [&](std::uint64_t a, std::uint64_t, std::uint64_t) {
        for (std::uint64_t b = 0; b < static_cast<std::uint64_t>(m); ++b) {
            double dot = 0.0;
            for (std::size_t i = 0; i < t; ++i) dot += unit[a * t + i] * unit[b * t + i];
            gram[a * static_cast<std::uint64_t>(m) + b] = dot;
        }
    });
    const OncLabelling onc = optimal_number_of_clusters(gram, m, options);
    out.quality = onc.quality;
    const std::size_t k = static_cast<std::size_t>(onc.clusters);
    // 4. Every combination to its nearest cluster mean.
    std::vector<double> means(k * t, 0.0);
    std::vector<std::uint64_t> sample_sizes(k, 0);
    for (int a = 0; a < m; ++a) {
        const std::size_t c = static_cast<std::size_t>(onc.labels[static_cast<std::size_t>(a)]);
        ++sample_sizes[c];
        for (std::size_t i = 0; i < t; ++i) means[c * t + i] += unit[static_cast<std::size_t>(a) * t + i];
    }
    std::vector<double> mean_squares(k, 0.0);
    for (std::size_t c = 0; c < k; ++c) {
        for (std::size_t i = 0; i < t; ++i) {
            means[c * t + i] /= static_cast<double>(sample_sizes[c]);
            mean_squares[c] += means[c * t + i] * means[c * t + i];
        }
    }
    constexpr std::uint32_t kFlat = kNoCluster - 1;
    out.cluster_of.assign(count, kNoCluster);
    struct Nearest {
        double distance = HUGE_VAL;
        std::uint64_t ordinal = 0;
    };
    const std::uint64_t tiles = (count + kStreamTile - 1) / kStreamTile;
    std::vector<std::uint64_t> tile_members(tiles * k, 0);
    std::vector<Nearest> tile_nearest(tiles * k);
    run_tiles(options.threads, count, kStreamTile, [&](std::uint64_t tile, std::uint64_t first, std::uint64_t end) {
        std::vector<double> x(t);
        for (std::uint64_t n = first; n < end; ++n) {
            if (kind[n] != StreamKind::Varying) {
                out.cluster_of[n] = kind[n] == StreamKind::Flat ? kFlat : kNoCluster;
                continue;
            }
            unit_stream(row(n), observations, x.data());
            double length = 0.0;
            for (std::size_t i = 0; i < t; ++i) length += x[i] * x[i];
            std::size_t best = 0;
            double best_distance = HUGE_VAL;
            for (std::size_t c = 0; c < k; ++c) {
                double dot = 0.0;
                for (std::size_t i = 0; i < t; ++i) dot += x[i] * means[c * t + i];
                const double d = length - 2.0 * dot + mean_squares[c];
                if (d < best_distance) {
                    best_distance = d;
                    best = c;
                }
            }
            out.cluster_of[n] = static_cast<std::uint32_t>(best);
            ++tile_members[tile * k + best];
            Nearest& near = tile_nearest[tile * k + best];
            if (best_distance < near.distance) near = {best_distance, n};  // ordinals rise within a tile
        }
    });
    std::vector<TrialCluster> found(k);
    std::vector<Nearest> nearest(k);
    for (std::uint64_t tile = 0; tile < tiles; ++tile) {
        for (std::size_t c = 0; c < k; ++c) {
            found[c].members += tile_members[tile * k + c];
            const Nearest& near = tile_nearest[tile * k + c];
            if (near.distance < nearest[c].distance) nearest[c] = near;  // earlier tiles win ties
        }
    }
    std::vector<std::uint32_t> renumbered(k, kNoCluster);
    for (std::size_t c = 0; c < k; ++c) {
        if (found[c].members == 0) continue;
        renumbered[c] = static_cast<std::uint32_t>(out.clusters.size());
        out.clusters.push_back({found[c].members, nearest[c].ordinal, false});
    }
    const auto flat_index = static_cast<std::uint32_t>(out.clusters.size());
    TrialCluster flat{0, 0, true};
    for (std::uint64_t n = 0; n < count; ++n) {
        std::uint32_t& c = out.cluster_of[n];
        if (c == kNoCluster) {
            ++out.left_out;
        } else if (c == kFlat) {
            if (flat.members++ == 0) flat.representative = n;
            c = flat_index;
        } else {
            c = renumbered[c];
        }
    }
    if (flat.members > 0) out.clusters.push_back(flat);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

}  // namespace btforge
