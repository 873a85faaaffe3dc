#include "host/app/mpi_sweep.h"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <set>
#include <thread>

#include "host/app/output_files.h"
#include "host/app/shard_merge.h"
#include "host/app/thread_count.h"
#include "host/app/usage_error.h"
#include "host/io/atomic_file.h"
#include "host/mpi/mpi_communicator.h"

namespace btforge {

namespace {

// What a rank tells rank 0 after the set-up and after the work (Note
// [Sweeps over MPI]).
struct RankReport {
    enum Status : char { kOk = 'o', kFailed = 'f', kUsage = 'u', kInterrupted = 'i' };
    Status status = kOk;
    std::string host;
    std::string message;          // why not kOk
    std::uint64_t resumed = 0;    // shards taken from --checkpoint
    // Note [Shards between ranks]
    // A rank other than 0 sends each shard as shard-file bytes, a message of
    // its own after the report (no copy into the report), which rank 0 reads
    // as merge reads a file (Note [Shard files]: its checksums and counts).
    // Rank 0's own shards never leave its memory, so they are kept as they
    // are, not written to bytes and read back; check_shards checks every
    // shard's content either way.
    std::vector<std::pair<std::string, std::string>> shards;  // name, shard-file bytes
    std::vector<NamedShard> own;  // rank 0's
};

// Note [Rank 0 speaks for the job]
// A rank whose report reached rank 0 exits 0, whatever it reports: Open MPI
// ends the whole job at the first non-zero exit, which would kill rank 0
// before it could receive the other reports and say what failed. So the
// job's exit status and its message are rank 0's, which reports every
// rank's failure by rank number and host.

void put_number(std::string& out, std::uint64_t value) { out.append(reinterpret_cast<const char*>(&value), sizeof value); }
void put_text(std::string& out, const std::string& text) {
    put_number(out, text.size());
    out += text;
}

// The report without its shards' bytes (Note [Shards between ranks]).
std::string encode(const RankReport& report) {
    std::string out(1, static_cast<char>(report.status));
    put_text(out, report.host);
    put_text(out, report.message);
    put_number(out, report.resumed);
    put_number(out, report.shards.size());
    for (const auto& [name, bytes] : report.shards) put_text(out, name);
    return out;
}

RankReport decode(int rank, const std::string& bytes) {
    std::size_t at = 0;
    const auto fail = [rank]() { return MpiFailure("the report of rank " + std::to_string(rank) + " is malformed"); };
    const auto number = [&]() {
        std::uint64_t value = 0;
        if (bytes.size() - at < sizeof value) throw fail();
        std::memcpy(&value, bytes.data() + at, sizeof value);
        at += sizeof value;
        return value;
    };
    const auto text = [&]() {
        const std::uint64_t size = number();
        if (bytes.size() - at < size) throw fail();
        std::string value = bytes.substr(at, size);
        at += size;
        return value;
    };
    if (bytes.empty()) throw fail();
    RankReport report;
    report.status = static_cast<RankReport::Status>(bytes[at++]);
    report.host = text();
    report.message = text();
    report.resumed = number();
    for (std::uint64_t n = number(); n > 0; --n) report.shards.emplace_back(text(), std::string());
    if (at != bytes.size()) throw fail();
    return report;
}

// The report of a rank whose work threw.
RankReport failure_report(const std::string& host, const std::exception_ptr& failure) {
    RankReport report;
    report.host = host;
    report.status = RankReport::kFailed;
    try {
        std::rethrow_exception(failure);
    } catch (const UsageError& e) {
        report.status = RankReport::kUsage;
        report.message = e.what();
    } catch (const OutputCancelled& e) {
        report.status = RankReport::kInterrupted;
        report.message = e.what();
    } catch (const std::bad_alloc&) {
        report.message = "out of memory";
    } catch (const std::exception& e) {
        report.message = e.what();
    } catch (...) {
        report.message = "an unknown failure";
    }
    return report;
}

// Rank 0 gets every rank's report in rank order, its own first; the other
// ranks send theirs and get nothing.
std::vector<RankReport> exchange_reports(const MpiCommunicator& world, RankReport mine) {
    if (world.rank() != 0) {
        world.send(0, encode(mine), "its report");
        for (const auto& [name, bytes] : mine.shards) world.send(0, bytes, name);
        return {};
    }
    std::vector<RankReport> reports;
    reports.push_back(std::move(mine));
    for (int rank = 1; rank < world.size(); ++rank) {
        RankReport report = decode(rank, world.receive(rank, "the report"));
        for (auto& [name, bytes] : report.shards) bytes = world.receive(rank, name);
        reports.push_back(std::move(report));
    }
    return reports;
}

// Rank 0, when some report is not kOk: throws the error the front end
// reports (rank 0's own exception when it has one, the other ranks'
// messages said first), or returns the interrupted result.
MpiSweepResult settle_failures(const std::vector<RankReport>& reports, const std::exception_ptr& own,
                               const std::string& when, const MpiSweepOptions& mpi, const MpiFrontEnd& front) {
    std::string failures;
    bool interrupted = false;
    for (std::size_t rank = 0; rank < reports.size(); ++rank) {
        const RankReport& report = reports[rank];
        if (report.status == RankReport::kInterrupted) interrupted = true;
        if (report.status != RankReport::kFailed && report.status != RankReport::kUsage) continue;
        // Every rank read the same command line: a message rank 0 has too
        // is said once, by rank 0.
        if (own && rank != 0 && report.message == reports.front().message) continue;
        if (rank == 0 && own) continue;
        failures += (failures.empty() ? "" : "; ") + std::string("rank ") + std::to_string(rank) + " of " +
                    std::to_string(reports.size()) + " (on " + report.host + ") failed " + when + ": " + report.message;
    }
    const std::string resume = mpi.checkpoint.empty()
                                   ? ""
                                   : "; the shards completed are in " + mpi.checkpoint +
                                         ": the same command resumes from them (Note [Resuming an MPI run])";
    if (own) {
        if (!failures.empty() && front.notice) front.notice(failures);
        std::rethrow_exception(own);
    }
    if (!failures.empty()) throw std::runtime_error(failures + "; no result file written" + resume);
    MpiSweepResult result;
    result.rank0 = true;
    result.interrupted = true;
    if (interrupted && front.notice) front.notice("interrupted " + when + "; no result file written" + resume);
    return result;
}

std::filesystem::path checkpoint_file(const std::string& directory, std::uint64_t index, std::uint64_t count) {
    const std::size_t width = std::to_string(count - 1).size();
    std::string i = std::to_string(index);
    i.insert(0, width - i.size(), '0');
    return std::filesystem::path(directory) / ("shard-" + i + "-of-" + std::to_string(count) + ".shard");
}

// Note [Resuming an MPI run]: the checkpoint of this shard, when there is
// one of this run; an error when it is another run's.
bool take_checkpoint(const std::filesystem::path& file, const SweepRun& run, std::optional<ShardFile>* taken) {
    std::error_code error;
    if (!std::filesystem::exists(file, error)) return false;
    ShardFile shard = read_shard_file(file);  // Note [Shard files]: the checks of every shard
    if (shard.identity != run.identity) {
        throw std::runtime_error("--checkpoint: " + file.string() + " is a shard of another run (" +
                                 describe_identity_difference(shard.identity, run.identity) +
                                 " as in this run); remove it, or give another --checkpoint directory");
    }
    if (shard.first_ordinal != run.first_ordinal || shard.end_ordinal != run.end_ordinal) {
        throw std::runtime_error("--checkpoint: " + file.string() + " holds combinations " +
                                 std::to_string(shard.first_ordinal) + ".." + std::to_string(shard.end_ordinal) +
                                 ", not this shard's " + std::to_string(run.first_ordinal) + ".." +
                                 std::to_string(run.end_ordinal) + "; remove it");
    }
    *taken = std::move(shard);
    return true;
}

}  // namespace

MpiSweepResult run_mpi_sweep(SweepRequest request, const std::string& output, const MpiSweepOptions& mpi,
                             bool device_chosen, const MpiFrontEnd& front) {
    const auto say = [&front](const std::string& line) {
        if (front.notice) front.notice(line);
    };
    if (!request.shard.empty()) {
        throw UsageError("--mpi cuts the run into shards itself; --shard is for runs without MPI (Note [Shards])");
    }
    if (request.intrabar_bounds) {
        // Note [Bounds of the order inside a bar]
        throw UsageError("--intrabar-bounds replays the kept rows in one process after the sweep; run it without --mpi");
    }
    // Until MPI is up every rank speaks for itself.
    const std::unique_ptr<MpiCommunicator> world = MpiCommunicator::open();
    const int rank = world->rank();
    const int ranks = world->size();
    if (front.mpi_started) front.mpi_started();

    // The set-up, checked by every rank before any work (Note [Sweeps over MPI]).
    CheckedSweepRequest checked;
    OverfittingBackend cscv;  // rank 0's (Note [CSCV of a merge])
    std::uint64_t shards = 0;
    std::exception_ptr own;
    try {
        if (request.threads == 0) {
            // The node's hardware threads shared by its ranks, but no more
            // than the CPUs this rank may run on (Note [Threads a process
            // may use]): mpirun may have bound it to fewer.
            const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
            const int share = static_cast<int>(std::max(1u, hardware / static_cast<unsigned>(world->node_size())));
            request.threads = std::min(share, usable_cpu_count());
            if (rank == 0 && request.threads < share) {
                say("rank 0 may run on " + std::to_string(request.threads) + " of the node's " +
                    std::to_string(hardware) + " CPUs (its CPU affinity: mpirun binds each rank to a core when it " +
                    "starts two or fewer), so its CPU work runs on " + thread_count_text(request.threads) +
                    "; `mpirun --bind-to none` or `--map-by slot:PE=" + std::to_string(share) + "` gives each rank " +
                    std::to_string(share));
            }
        }
        if (!device_chosen) request.backend.node_rank = world->node_rank();  // Note [Ranks and their GPUs]
        shards = mpi.shards != 0 ? mpi.shards : static_cast<std::uint64_t>(ranks);
        if (shards > kMaxShards) {
            throw UsageError("--mpi-shards " + std::to_string(shards) + ": at most " + std::to_string(kMaxShards) +
                             " shards (rank 0 holds every shard; Note [Shards])");
        }
        if (shards < static_cast<std::uint64_t>(ranks)) {
            throw UsageError("--mpi-shards " + std::to_string(shards) + " is fewer than the " + std::to_string(ranks) +
                             " ranks: every rank takes one shard at least");
        }
        request.shard = "0/" + std::to_string(shards);  // the shard options' checks
        checked = check_sweep_request(std::move(request));
        if (rank == 0) {
            if (output.empty() || output.back() == '/') {
                throw UsageError("--output '" + output + "': expected a file name without extension (results go to " +
                                 "OUTPUT.csv and OUTPUT.json)");
            }
            // Note [Outputs checked before work]; opened again for the merge,
            // so no temporary waits through the run.
            open_outputs(result_files(output, checked), input_files(checked.request), front.cancel);
            if (checked.request.pbo) {
                cscv = resolve_overfitting_backend(checked.request.pbo_backend, checked.request.backend);
                // With --backend auto the sweep itself says when there is no GPU.
                if (!cscv.fallback.empty() && checked.request.backend.name == "cuda") {
                    say("no usable GPU for rank 0's CSCV (" + cscv.fallback + "); it runs on " +
                        thread_count_text(checked.request.threads));
                }
            }
            say(std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks") + " (" + world->library() + "), " +
                std::to_string(shards) + " shards, rank r runs shards r, r + " + std::to_string(ranks) +
                ", ...; the progress shown is rank 0's");
        }
        if (!mpi.checkpoint.empty()) std::filesystem::create_directories(mpi.checkpoint);
        // Loaded once for all of the rank's shards.
        checked.request.loaded_market = std::make_shared<const LoadedMarket>(load_market(checked.request.market));
    } catch (...) {
        own = std::current_exception();
    }
    if (world->all_min(own ? 0 : 1) == 0) {
        RankReport mine;
        mine.host = world->host();
        if (own) mine = failure_report(world->host(), own);
        const std::vector<RankReport> reports = exchange_reports(*world, mine);
        if (rank != 0) return MpiSweepResult{};  // Note [Rank 0 speaks for the job]
        return settle_failures(reports, own, "while setting up", mpi, front);
    }

    // The work: this rank's shards, each from a checkpoint or run.
    RankReport work;
    work.host = world->host();
    try {
        for (std::uint64_t i = static_cast<std::uint64_t>(rank); i < shards; i += static_cast<std::uint64_t>(ranks)) {
            CheckedSweepRequest part = checked;
            part.shard = ShardRange{i, shards};
            part.request.shard = std::to_string(i) + "/" + std::to_string(shards);
            SweepHooks hooks;
            hooks.cancel = front.cancel;
            hooks.progress_on_stderr = rank == 0;
            hooks.notice = front.notice;
            if (rank == 0 && i == 0) hooks.header = front.header;
            const std::filesystem::path file =
                mpi.checkpoint.empty() ? std::filesystem::path() : checkpoint_file(mpi.checkpoint, i, shards);
            std::optional<ShardFile> resumed;
            if (!mpi.checkpoint.empty()) {
                hooks.resume = [&](const SweepRun& run) { return take_checkpoint(file, run, &resumed); };
            }
            std::unique_ptr<SweepRun> run = run_sweep(part, hooks);
            if (run->cancelled) {
                work.status = RankReport::kInterrupted;
                work.message = "shard " + part.request.shard + " " + run->cancelled_while;
                break;
            }
            if (resumed) {
                ++work.resumed;
                if (rank == 0) {
                    work.own.push_back({file.string(), std::move(*resumed)});  // read from its file
                } else {
                    work.shards.emplace_back(file.string(), shard_bytes(*resumed));
                }
                continue;
            }
            ShardFile shard = make_shard_file(*run, part);
            run.reset();
            if (!mpi.checkpoint.empty()) {
                OutputTransaction checkpoint = open_outputs({{"--checkpoint", file}}, {}, front.cancel);
                write_shard_file(checkpoint.stream(0), shard);
                checkpoint.commit();
            }
            std::string name = "rank " + std::to_string(rank) + "'s shard " + part.request.shard;
            if (rank == 0) {
                ShardFile kept = shard_in_memory(name, std::move(shard));
                work.own.push_back({std::move(name), std::move(kept)});
            } else {
                work.shards.emplace_back(std::move(name), shard_bytes(shard));
            }
        }
    } catch (...) {
        own = std::current_exception();
        work = failure_report(world->host(), own);
    }
    const auto waiting_started = std::chrono::steady_clock::now();
    std::vector<RankReport> reports = exchange_reports(*world, std::move(work));
    if (rank != 0) return MpiSweepResult{};  // Note [Rank 0 speaks for the job]
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - waiting_started).count();
    for (const RankReport& report : reports) {
        if (report.status != RankReport::kOk) return settle_failures(reports, own, "during the sweep", mpi, front);
    }

    // Rank 0: the merge, as btforge merge does it.
    std::vector<NamedShard> named;
    std::set<std::string> hosts;
    std::uint64_t resumed = 0;
    for (RankReport& report : reports) {
        hosts.insert(report.host);
        resumed += report.resumed;
        for (NamedShard& shard : report.own) named.push_back(std::move(shard));
        report.own.clear();
        for (auto& [name, bytes] : report.shards) {
            named.push_back({name, read_shard_bytes(name, bytes)});
            std::string().swap(bytes);
        }
    }
    std::vector<NamedShard> checked_shards = check_shards(std::move(named));
    std::ostringstream timing;  // the default formatting of a double, as the stream said it before
    timing << "rank 0 waited " << waited << " s for the other ranks' reports and shards, read and checked every "
           << "shard in " << std::chrono::duration<double>(std::chrono::steady_clock::now() - waiting_started).count() - waited
           << " s";
    say(timing.str());
    OutputTransaction outputs = open_outputs(result_files(output, checked), input_files(checked.request), front.cancel);
    const std::string what = "mpi: " + std::to_string(ranks) + (ranks == 1 ? " rank on " : " ranks on ") +
                             std::to_string(hosts.size()) + (hosts.size() == 1 ? " host, " : " hosts, ") +
                             std::to_string(shards) + (shards == 1 ? " shard merged" : " shards merged");
    SweepHooks hooks;
    hooks.cancel = front.cancel;
    hooks.progress_on_stderr = true;
    MpiSweepResult result;
    result.rank0 = true;
    result.shards = shards;
    result.resumed = resumed;
    result.merged = merge_and_write(std::move(checked_shards), checked, cscv, what, outputs, hooks);
    result.interrupted = result.merged->cancelled;
    return result;
}

}  // namespace btforge
