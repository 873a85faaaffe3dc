// The MPI plugin of `btforge sweep --mpi` (Note [MPI as a plugin]): the MPI
// calls of a sweep, behind the C table of mpi_plugin_api.h.

#include <mpi.h>

#include <cstring>

#include "host/mpi/mpi_plugin_api.h"

namespace {

// Messages are sent in pieces: MPI counts are ints.
constexpr uint64_t kPiece = uint64_t{1} << 30;
constexpr int kSizeTag = 1;
constexpr int kBytesTag = 2;

MPI_Comm g_node = MPI_COMM_NULL;

int init(char* library, int library_size) {
    int provided = 0;
    int code = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    if (code != MPI_SUCCESS) return code;
    // A failed call returns its code: btforge says what failed, with no
    // partial result (the default handler would abort without a word).
    code = MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (code != MPI_SUCCESS) return code;
    code = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &g_node);
    if (code != MPI_SUCCESS) return code;
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int length = 0;
    MPI_Get_library_version(version, &length);
    if (library_size > 0) {
        std::strncpy(library, version, static_cast<std::size_t>(library_size) - 1);
        library[library_size - 1] = '\0';
        if (char* newline = std::strchr(library, '\n')) *newline = '\0';
    }
    return MPI_SUCCESS;
}

int rank(int* value) { return MPI_Comm_rank(MPI_COMM_WORLD, value); }
int size(int* value) { return MPI_Comm_size(MPI_COMM_WORLD, value); }

int node_rank(int* value, int* count) {
    const int code = MPI_Comm_rank(g_node, value);
    return code != MPI_SUCCESS ? code : MPI_Comm_size(g_node, count);
}

int processor_name(char* name, int name_size) {
    char buffer[MPI_MAX_PROCESSOR_NAME] = {};
    int length = 0;
    const int code = MPI_Get_processor_name(buffer, &length);
    if (code == MPI_SUCCESS && name_size > 0) {
        std::strncpy(name, buffer, static_cast<std::size_t>(name_size) - 1);
        name[name_size - 1] = '\0';
    }
    return code;
}

int all_min(int value, int* minimum) { return MPI_Allreduce(&value, minimum, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD); }

int send(int destination, const void* bytes, uint64_t count) {
    int code = MPI_Send(&count, 1, MPI_UINT64_T, destination, kSizeTag, MPI_COMM_WORLD);
    const char* at = static_cast<const char*>(bytes);
    for (uint64_t sent = 0; code == MPI_SUCCESS && sent < count;) {
        const uint64_t piece = count - sent < kPiece ? count - sent : kPiece;
        code = MPI_Send(at + sent, static_cast<int>(piece), MPI_BYTE, destination, kBytesTag, MPI_COMM_WORLD);
        sent += piece;
    }
    return code;
}

int receive_size(int source, uint64_t* count) {
    return MPI_Recv(count, 1, MPI_UINT64_T, source, kSizeTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int receive(int source, void* bytes, uint64_t count) {
    char* at = static_cast<char*>(bytes);
    int code = MPI_SUCCESS;
    for (uint64_t received = 0; code == MPI_SUCCESS && received < count;) {
        const uint64_t piece = count - received < kPiece ? count - received : kPiece;
        code = MPI_Recv(at + received, static_cast<int>(piece), MPI_BYTE, source, kBytesTag, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE);
        received += piece;
    }
    return code;
}

void error_text(int code, char* text, int text_size) {
    char buffer[MPI_MAX_ERROR_STRING] = {};
    int length = 0;
    if (MPI_Error_string(code, buffer, &length) != MPI_SUCCESS) std::strcpy(buffer, "unknown MPI error");
    if (text_size > 0) {
        std::strncpy(text, buffer, static_cast<std::size_t>(text_size) - 1);
        text[text_size - 1] = '\0';
    }
}

int finalize() {
    if (g_node != MPI_COMM_NULL) MPI_Comm_free(&g_node);
    return MPI_Finalize();
}

const btforge_mpi_api kApi = {BTFORGE_MPI_PLUGIN_VERSION, init, rank, size, node_rank, processor_name, all_min,
                              send, receive_size, receive, error_text, finalize};

}  // namespace

extern "C" __attribute__((visibility("default"))) const btforge_mpi_api* btforge_mpi_plugin(void) { return &kApi; }
