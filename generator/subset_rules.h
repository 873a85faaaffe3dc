#pragma once

#include <clang-c/Index.h>

#include <string>
#include <unordered_set>
#include <vector>

#include "generator/clang_util.h"
#include "generator/kernel_model.h"

namespace btforge::gen {

// Note [Device subset rules]
// SPEC §2: marked code must compile for the GPU as it is written. The rules
// run on clang's AST of the marked entities (bodies, parameters, return types
// and struct fields), never on text, and report every violation at once at
// the offending construct, not at the enclosing function:
//   heap-allocation  new/delete, malloc/calloc/realloc/free/aligned_alloc
//   container        std containers, std::span, smart pointers, std::function
//   std-array        std::array (its members are host functions; the message
//                    says to declare a plain array)
//   std-string       std::basic_string / std::basic_string_view
//   exception        throw, try/catch
//   rtti-virtual     typeid, dynamic_cast, virtual members or bases
//   recursion        a cycle in the call graph of marked functions
//   static-mutable-state  non-const static locals, non-const globals
//   io               stdio calls, iostreams, FILE
//   transcendental   std::exp, std::log, std::pow, std::sin ...: not bit-identical
//                    between glibc and CUDA; the message names the portable
//                    version (Note [Portable transcendentals]) where there is one
//   unmarked-call    calls to anything but marked functions and the math allow-list
//   lambda           a lambda expression (said once, at the lambda, not again at
//                    its calls: its call operator is not marked code)
//   non-pod          marked structs, locals and parameters that are not
//                    trivially copyable and standard layout
//   variable-length-array  runtime-sized arrays
//   cold-field       BT_COLD on anything but a field of a marked struct
//                    (Note [Cold fields] in reference/kernel_marker.h)
// One construct is reported under one rule: a call to printf is `io`, and
// one to std::exp `transcendental`, not also `unmarked-call`; a read of std::cout is `io`, not also a non-const global.

struct MarkedCursor {
    CXCursor cursor;
    Entity::Kind kind;
    std::string qualified_name;
};

struct SubsetInput {
    const clang_util::PathMapper* paths = nullptr;
    std::vector<MarkedCursor> marked;          // translation-unit order
    std::unordered_set<std::string> marked_usrs;  // of `marked`
};

// Every violation of the marked entities, sorted by file, line, column, rule.
std::vector<Violation> check_device_subset(const SubsetInput& input);

// True for the math functions that may be called from marked code besides
// marked functions (std::sqrt, std::fabs, ..., std::numeric_limits<double>::quiet_NaN).
bool is_allowed_math(CXCursor function);

}  // namespace btforge::gen
