#pragma once

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <span>
#include <vector>

#include "host/engine/metric_columns.h"
#include "host/engine/top_n.h"

namespace btforge {

// The rows a report writes, best first: the top N kept in memory, or every
// row of a sweep spooled to disk.
class RankedRows {
public:
    virtual ~RankedRows() = default;
    virtual std::uint64_t size() const = 0;
    virtual ResultRow at(std::uint64_t rank) const = 0;  // 0-based
};

// The top N, already sorted (SweepOutcome::top).
class RowsInMemory final : public RankedRows {
public:
    explicit RowsInMemory(const std::vector<ResultRow>& rows) : rows_(&rows) {}
    std::uint64_t size() const override { return rows_->size(); }
    ResultRow at(std::uint64_t rank) const override { return (*rows_)[rank]; }

private:
    const std::vector<ResultRow>* rows_;
};

// Note [Rows spooled to disk]
// --all-rows writes every combination's row, ranked. Kept in memory, 2M rows
// took 8.3 GB (the rows and a JSON document of all of them). Instead each
// row goes, as soon as a worker has it, to its own fixed slot of an unnamed
// file beside the outputs (sizeof(ResultRow) bytes at its run ordinal), and
// only its RankKey and ordinal stay in memory (32 bytes); after the sweep
// the keys are sorted with rank_key_before, which is ranks_before, and the
// writers read the rows back in rank order and stream them out. The file
// has no name (O_TMPFILE, or unlinked right after it was created), so no
// exit, however abrupt, leaves it behind; it lives beside the outputs
// because /tmp may be memory, and needs sizeof(ResultRow) bytes of disk
// per row there.
class RowSpool final : public RankedRows {
public:
    // `directory`: where the outputs go. Throws std::runtime_error naming it
    // when no file can be made there.
    RowSpool(const std::filesystem::path& directory, std::uint64_t rows, const RankOrder& order);
    RowSpool(const RowSpool&) = delete;
    RowSpool& operator=(const RowSpool&) = delete;
    ~RowSpool() override;

    // Thread-safe; every ordinal in [0, rows) exactly once.
    void store(std::uint64_t first_ordinal, std::span<const ResultRow> rows);
    // After the last store(): sorts the keys. Throws if a write failed.
    void rank();

    std::uint64_t size() const override { return keys_.size(); }
    ResultRow at(std::uint64_t rank) const override;

private:
    struct Entry {
        RankKey key;
        std::uint64_t ordinal;
    };
    RankOrder order_;
    std::filesystem::path directory_;
    int fd_ = -1;
    std::vector<Entry> keys_;  // by ordinal until rank(), then best first
    std::mutex failure_mutex_;
    int write_error_ = 0;  // errno of the first failed write
};

}  // namespace btforge
