#pragma once

// The top N of one chunk, selected on the device (SPEC §8): shared by the
// kernel (top_n_select.cu, nvcc) and the host (top_n_device.cpp: the same
// phases run sequentially, which is what the tests run without a GPU).
//
// Note [Top N on the device]
// Each block takes a tile of kTopNTile rows of the chunk and sorts (key, id,
// slot) triples of the tile in shared memory with a bitonic network; its
// first `keep` = min(N, tile) entries are written out with their whole rows.
// Every row of the chunk's top N is among the top N of its own tile, so the
// union of the blocks' winners holds the chunk's top N; the host offers
// those rows to the same TopN as the CPU sweep, whose comparator
// (ranks_before) decides the final order. The device only has to select a
// superset, but it does so with a strict total order, so its output does not
// depend on scheduling either.
//
// Note [Rank keys]
// ranks_before (host/engine/top_n.h) as unsigned comparisons. First the
// row's group, rank_tier (Note [Rows with few trades]: enough trades, few
// trades, non-finite metrics), the same function the host calls; then the
// metric, read as a double (an int field converted exactly), as a 64-bit key
// whose ascending order is the better-first order, NaN last:
//   - every NaN -> all ones (NaNs tie with each other, larger than any number);
//   - -0.0 -> +0.0 (ranks_before compares with ==, so they tie);
//   - the IEEE bits made order-preserving (negative: all bits flipped;
//     positive: sign bit set), then flipped again when higher is better.
// The largest non-NaN key is 0xFFF0000000000000 (+inf, or -inf when higher
// is better), so NaN stays strictly last. A row with non-finite metrics
// (Note [Rows with non-finite metrics]) is in the last group and gets the
// NaN key whatever its ranked value, so that such rows tie up to their ids
// as ranks_before has them, and is counted. Equal (group, key) fall back to
// the combination id, then to the row's slot in the tile, which is unique:
// the order is total even for padding (last group, NaN key, the largest id
// and slot) and repeated ids.
//
// Note [Distinct outcomes on the device]
// The host keeps the top N outcomes, each by its best row (Note [Distinct
// outcomes], TopOutcomes), so a tile must hand over its N best distinct
// outcomes, not its N best rows: those may be one outcome N times. The
// load phase hashes every row's outcome (outcome_of_row, the host's
// function) and writes every key out, for the host's count of distinct
// outcomes. The tile is then sorted twice. First by (group, rank key,
// outcome key, id, slot): the rows of one outcome, which share group and
// rank key, are now next to each other, their smallest id first; every
// other row of the run is marked a duplicate and moved to a group after
// the last. Then by (group, rank key, id, slot), Note [Rank keys]'s order:
// the first `keep` entries are the tile's best distinct outcomes, each by
// its best row in the tile, which is what TopOutcomes needs (an outcome
// among the chunk's best N has fewer than N outcomes before it in any
// tile). Duplicates and padding among the first `keep` are written with
// the id kNoWinner, which the host skips.

#include <cstring>  // the host pass of top_n_double_bits, nvcc's included

#include "generated/btforge_layout.h"
#include "host/engine/outcome_key.h"
#include "host/engine/rank_tier.h"
#include "reference/metrics/metrics.h"

#ifdef __CUDACC__
#define BTFORGE_TOP_N_HD __host__ __device__
#else
#define BTFORGE_TOP_N_HD
#endif

namespace btforge::device {

inline constexpr unsigned kTopNThreads = 512;
inline constexpr unsigned kTopNTile = 2 * kTopNThreads;  // one compare-exchange per thread and step
inline constexpr unsigned long long kNanRankKey = ~0ull;
inline constexpr unsigned kPaddingSlot = kTopNTile;      // after every real slot
inline constexpr unsigned long long kNoWinner = ~0ull;   // an output that is no row (never an id)

// The kernel's only parameter, passed by value like SweepLaunch.
struct TopNSelectLaunch {
    const Metrics* rows;            // [count]: the chunk's rows
    const unsigned long long* ids;  // [count]: their combination ids
    const PeriodStatistics* periods;  // [count * n_periods]: their period statistics (null when none)
    int n_periods;
    unsigned long long count;
    btforge::OutcomeKey* keys;      // [count]: every row's outcome key (Note [Distinct outcomes])
    unsigned long long* out_ids;    // [blocks * keep]: kNoWinner where the entry is no row
    Metrics* out_rows;              // [blocks * keep]
    btforge::OutcomeKey* out_keys;  // [blocks * keep]
    unsigned metric_offset;         // byte offset of the ranked field in Metrics
    int metric_integral;            // 1: the field is an int, 0: a double
    int higher_is_better;
    unsigned keep;                  // min(N, kTopNTile), at least 1
    int min_trades;                 // Note [Rows with few trades]
    unsigned long long* invalid_rows;  // += the chunk's rows with non-finite metrics (may be null)
};

struct TopNSelectShared {
    unsigned char tier[kTopNTile];  // RankTier, or kDuplicateTier
    unsigned char duplicate[kTopNTile];
    unsigned long long key[kTopNTile];
    unsigned long long outcome_high[kTopNTile];  // the row's OutcomeKey
    unsigned long long outcome_low[kTopNTile];
    unsigned long long id[kTopNTile];
    unsigned slot[kTopNTile];
};

BTFORGE_TOP_N_HD inline unsigned long long top_n_double_bits(double x) {
#ifdef __CUDA_ARCH__
    return static_cast<unsigned long long>(__double_as_longlong(x));
#else
    unsigned long long bits;
    std::memcpy(&bits, &x, sizeof bits);
    return bits;
#endif
}

// Note [Rank keys].
BTFORGE_TOP_N_HD inline unsigned long long top_n_rank_key(double x, bool higher_is_better) {
    if (x != x) return kNanRankKey;
    if (x == 0.0) x = 0.0;
    unsigned long long bits = top_n_double_bits(x);
    bits = (bits >> 63) != 0 ? ~bits : bits | (1ull << 63);
    return higher_is_better ? ~bits : bits;
}

BTFORGE_TOP_N_HD inline double top_n_read_metric(const Metrics& row, unsigned offset, bool integral) {
    const unsigned char* field = reinterpret_cast<const unsigned char*>(&row) + offset;
    if (integral) return static_cast<double>(*reinterpret_cast<const int*>(field));
    return *reinterpret_cast<const double*>(field);
}

// The key of a whole row: Note [Rank keys], and kNanRankKey for a row with
// non-finite metrics. A valid row never gets kNanRankKey, and an invalid
// one always does, so the key alone tells which rows are invalid.
BTFORGE_TOP_N_HD inline unsigned long long top_n_row_key(const Metrics& row, unsigned offset, bool integral,
                                                         bool higher_is_better) {
    if (!btforge::metrics_are_finite(row)) return kNanRankKey;
    return top_n_rank_key(top_n_read_metric(row, offset, integral), higher_is_better);
}

// The row's group: Note [Rows with few trades].
BTFORGE_TOP_N_HD inline unsigned char top_n_row_tier(const Metrics& row, int min_trades) {
    return static_cast<unsigned char>(btforge::rank_tier(row, min_trades));
}

inline constexpr unsigned char kInvalidTier = static_cast<unsigned char>(btforge::RankTier::Invalid);
// After every group: a row whose outcome an earlier row of the tile has
// (Note [Distinct outcomes on the device]).
inline constexpr unsigned char kDuplicateTier = kInvalidTier + 1;

// (tier, key, id, slot) lexicographically: Note [Rank keys].
BTFORGE_TOP_N_HD inline bool top_n_entry_before(unsigned char tier_a, unsigned long long key_a,
                                                unsigned long long id_a, unsigned slot_a, unsigned char tier_b,
                                                unsigned long long key_b, unsigned long long id_b,
                                                unsigned slot_b) {
    if (tier_a != tier_b) return tier_a < tier_b;
    if (key_a != key_b) return key_a < key_b;
    if (id_a != id_b) return id_a < id_b;
    return slot_a < slot_b;
}

// Entries i and j of the tile: by (tier, key, id, slot), or with the
// outcome key after the rank key (Note [Distinct outcomes on the device]).
BTFORGE_TOP_N_HD inline bool top_n_slot_before(const TopNSelectShared& s, unsigned a, unsigned b, bool by_outcome) {
    if (by_outcome && s.tier[a] == s.tier[b] && s.key[a] == s.key[b]) {
        if (s.outcome_high[a] != s.outcome_high[b]) return s.outcome_high[a] < s.outcome_high[b];
        if (s.outcome_low[a] != s.outcome_low[b]) return s.outcome_low[a] < s.outcome_low[b];
    }
    return top_n_entry_before(s.tier[a], s.key[a], s.id[a], s.slot[a], s.tier[b], s.key[b], s.id[b], s.slot[b]);
}

BTFORGE_TOP_N_HD inline unsigned long long top_n_tile_begin(unsigned block) {
    return static_cast<unsigned long long>(block) * kTopNTile;
}

// The phases of a block, each the work of thread `t` between two barriers:
// load; one step per (k, j) of the bitonic network, by outcome; mark the
// duplicates; demote them; the network again, by rank; write
// (top_n_select.cu, top_n_select_on_host).
BTFORGE_TOP_N_HD inline void top_n_load(const TopNSelectLaunch& launch, TopNSelectShared& s, unsigned block,
                                        unsigned t) {
    const unsigned long long begin = top_n_tile_begin(block);
    unsigned long long invalid = 0;
    for (unsigned e = t; e < kTopNTile; e += kTopNThreads) {
        const unsigned long long row = begin + e;
        if (row < launch.count) {
            s.tier[e] = top_n_row_tier(launch.rows[row], launch.min_trades);
            s.key[e] = top_n_row_key(launch.rows[row], launch.metric_offset, launch.metric_integral != 0,
                                     launch.higher_is_better != 0);
            invalid += s.tier[e] == kInvalidTier ? 1 : 0;
            s.id[e] = launch.ids[row];
            s.slot[e] = e;
            const btforge::OutcomeKey outcome = btforge::outcome_of_row(
                launch.rows[row], launch.periods != nullptr ? launch.periods + row * launch.n_periods : launch.periods,
                launch.n_periods);
            s.outcome_high[e] = outcome.high;
            s.outcome_low[e] = outcome.low;
            launch.keys[row] = outcome;
        } else {
            s.tier[e] = kInvalidTier;
            s.key[e] = kNanRankKey;
            s.id[e] = ~0ull;
            s.slot[e] = kPaddingSlot;
            s.outcome_high[e] = ~0ull;
            s.outcome_low[e] = ~0ull;
        }
    }
    if (invalid != 0 && launch.invalid_rows != nullptr) {
#ifdef __CUDA_ARCH__
        atomicAdd(launch.invalid_rows, invalid);
#else
        *launch.invalid_rows += invalid;  // the host pass runs the threads one after the other
#endif
    }
}

// One compare-exchange of the bitonic sort (k: size of the sequences being
// merged, j: distance of the pair), ascending overall; `by_outcome` picks
// the order (top_n_slot_before).
BTFORGE_TOP_N_HD inline void top_n_sort_step(TopNSelectShared& s, unsigned k, unsigned j, unsigned t,
                                             bool by_outcome) {
    const unsigned i = 2 * j * (t / j) + t % j;
    const unsigned l = i + j;
    const bool ascending = (i & k) == 0;
    const bool l_first = top_n_slot_before(s, l, i, by_outcome);
    if (l_first == ascending) {
        const unsigned char tier = s.tier[i];
        const unsigned long long key = s.key[i];
        const unsigned long long high = s.outcome_high[i];
        const unsigned long long low = s.outcome_low[i];
        const unsigned long long id = s.id[i];
        const unsigned slot = s.slot[i];
        s.tier[i] = s.tier[l];
        s.key[i] = s.key[l];
        s.outcome_high[i] = s.outcome_high[l];
        s.outcome_low[i] = s.outcome_low[l];
        s.id[i] = s.id[l];
        s.slot[i] = s.slot[l];
        s.tier[l] = tier;
        s.key[l] = key;
        s.outcome_high[l] = high;
        s.outcome_low[l] = low;
        s.id[l] = id;
        s.slot[l] = slot;
    }
}

// After the sort by outcome: marks each entry whose outcome the entry
// before it has (they share group and rank key too). Reads only.
BTFORGE_TOP_N_HD inline void top_n_mark_duplicates(TopNSelectShared& s, unsigned t) {
    for (unsigned e = t; e < kTopNTile; e += kTopNThreads) {
        s.duplicate[e] = e > 0 && s.slot[e] != kPaddingSlot && s.tier[e] == s.tier[e - 1] &&
                                 s.key[e] == s.key[e - 1] && s.outcome_high[e] == s.outcome_high[e - 1] &&
                                 s.outcome_low[e] == s.outcome_low[e - 1]
                             ? 1
                             : 0;
    }
}

// Moves the marked entries after every group, for the second sort.
BTFORGE_TOP_N_HD inline void top_n_demote_duplicates(TopNSelectShared& s, unsigned t) {
    for (unsigned e = t; e < kTopNTile; e += kTopNThreads) {
        if (s.duplicate[e] != 0) s.tier[e] = kDuplicateTier;
    }
}

// The block's first `keep` entries, with their rows and outcome keys; an
// entry that is padding or a duplicate gets the id kNoWinner and nothing
// else (Note [Distinct outcomes on the device]).
BTFORGE_TOP_N_HD inline void top_n_write(const TopNSelectLaunch& launch, const TopNSelectShared& s, unsigned block,
                                         unsigned t) {
    const unsigned long long begin = top_n_tile_begin(block);
    for (unsigned e = t; e < launch.keep; e += kTopNThreads) {
        const unsigned long long out = static_cast<unsigned long long>(block) * launch.keep + e;
        if (s.slot[e] == kPaddingSlot || s.tier[e] == kDuplicateTier) {
            launch.out_ids[out] = kNoWinner;
            continue;
        }
        launch.out_ids[out] = s.id[e];
        launch.out_rows[out] = launch.rows[begin + s.slot[e]];
        launch.out_keys[out] = btforge::OutcomeKey{s.outcome_high[e], s.outcome_low[e]};
    }
}

// How many of block `block`'s `keep` outputs are rows or kNoWinner.
BTFORGE_TOP_N_HD inline unsigned top_n_block_winners(unsigned long long count, unsigned keep, unsigned block) {
    const unsigned long long begin = top_n_tile_begin(block);
    if (begin >= count) return 0;
    const unsigned long long rows = count - begin;
    return rows < keep ? static_cast<unsigned>(rows) : keep;
}

BTFORGE_TOP_N_HD inline unsigned top_n_blocks(unsigned long long count) {
    return static_cast<unsigned>((count + kTopNTile - 1) / kTopNTile);
}

}  // namespace btforge::device
