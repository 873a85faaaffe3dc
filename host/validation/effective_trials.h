#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace btforge {

// Note [Effective number of trials]
// A sweep's combinations are not independent trials: neighbouring
// parameters trade alike, and the deflated Sharpe ratio that counts each as
// a trial (with the variance of all their Sharpe ratios) expects by luck a
// maximum that no independent search would reach. The trials are clustered
// by their return streams (Note [Return streams from equity marks]) with
// ONC, the optimal number of clusters of López de Prado and Lewis (2019;
// Machine Learning for Asset Managers, §4.4), and the DSR takes the number
// of clusters as the number of trials and the variance of the clusters'
// representatives' Sharpe ratios (Note [Validation of a sweep]).
//
// The distance of two streams is ONC's, sqrt((1 - rho) / 2) of their
// correlation. Each stream is centred and scaled to length 1 (x), so the
// squared Euclidean distance of two is 2 (1 - rho): k-means on x is k-means
// in that metric (ONC runs k-means on the rows of the distance matrix
// instead; that needs N x N numbers, a million trials cannot).
//
// What a million trials need, and what is done instead of the whole matrix:
//   1. Streams that are not finite are left out and counted; streams
//      without variance (a combination that never held anything, or held
//      it without a change of equity at any mark) have no correlation and
//      make one cluster of their own.
//   2. A sample of at most `sample` distinct streams (equal return streams,
//      bit for bit, are one: duplicated outcomes are not trials) is drawn
//      without replacement: the streams in the order of a counter-based draw
//      of their ordinal (Note [Counter-based draws]) from the seed, the first
//      of each distinct stream kept until the sample is full.
//   3. ONC on the sample, as the book gives it, on the sample's Gram matrix
//      G = x x^T (kernel k-means: the distance of a point to a cluster's
//      mean is G_ii - 2 mean_j G_ij + mean_jl G_jl, so k-means costs the
//      sample's size squared per pass, not times the stream's length):
//        base: for k = 2 .. min(max_clusters, m - 1), `restarts` times,
//          k-means++ seeding and Lloyd's passes (a point moves only to a
//          strictly nearer cluster, ties to the lower index; an emptied
//          cluster takes the point farthest from its own cluster's mean)
//          until nothing moves (at most 100 passes); the silhouette of
//          every point (Rousseeuw, with ONC's distance; 0 in a cluster of
//          one); the labelling of highest quality, mean / standard
//          deviation of the silhouettes, is kept (the first on ties,
//          restarts outer, k inner, as the book's loops run);
//        top: each cluster's quality (its silhouettes' mean / deviation);
//          the clusters below the mean quality are clustered again, by top,
//          on their union (when two or more, with three or more points);
//          the new clusters replace them when the mean quality over all
//          clusters, with silhouettes recomputed on the whole sample,
//          rises; else the base labelling stands.
//      A quality whose deviation is 0 is numpy's quotient, +inf (or -inf)
//      for a positive (negative) mean, but 0 for a mean of 0 (a cluster of
//      one point). Fewer than three distinct streams are each their own
//      cluster.
//   4. Every combination (not only the sample) joins the cluster whose mean
//      x is nearest (ties to the lower index); a cluster no combination
//      joins is dropped. Its representative is its member nearest that mean
//      (ties to the smaller ordinal).
// Each step is a fixed sequence of floating-point operations per point or
// per (k, restart) job, and the choices are made in a fixed order, so the
// result is the same bits for any thread count, and for any engine (the
// streams are equal bits: Note [Equity marks]).
struct TrialClusterOptions {
    std::uint64_t seed = 0;
    int sample = 1024;
    int max_clusters = 32;
    int restarts = 4;
    int threads = 1;
};

inline constexpr int kMaxTrialClusterSample = 8192;

struct TrialCluster {
    std::uint64_t members = 0;
    std::uint64_t representative = 0;  // an ordinal (run order)
    bool flat = false;                 // the streams without variance
};

struct TrialClusters {
    std::uint64_t combinations = 0;
    std::uint64_t left_out = 0;  // streams that are not finite
    std::uint64_t sampled = 0;   // distinct streams that ONC clustered
    double quality = 0.0;        // mean / deviation of the sample's silhouettes
    double seconds = 0.0;        // wall time (for the text only: it varies)
    int threads = 1;
    std::vector<TrialCluster> clusters;
    // Per ordinal: its cluster's index, or kNoCluster (left out).
    std::vector<std::uint32_t> cluster_of;
};

inline constexpr std::uint32_t kNoCluster = 0xFFFFFFFFu;

// `streams` holds `observations` returns per combination, `count` of them.
TrialClusters cluster_trials(std::span<const double> streams, std::uint64_t count, int observations,
                             const TrialClusterOptions& options);

// For the tests: ONC on the points' Gram matrix (m x m, unit vectors), the
// label of each point in 0..K-1 and the quality.
struct OncLabelling {
    std::vector<int> labels;
    int clusters = 0;
    double quality = 0.0;
};
OncLabelling optimal_number_of_clusters(std::span<const double> gram, int m, const TrialClusterOptions& options);

}  // namespace btforge
