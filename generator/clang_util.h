#pragma once

#include <clang-c/Index.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <string>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include "generator/kernel_model.h"

// Small libclang helpers shared by the parser, the subset rules and the guarded uses; header-only
// so the front-end library needs no source file of its own for them.
namespace btforge::gen::clang_util {

// Owns a CXString for the duration of the copy.
inline std::string take(CXString s);

inline std::string spelling(CXCursor c);
inline std::string type_spelling(CXType t);

// Visits the direct children of `parent`; `f(child, parent)` returns a
// CXChildVisitResult, so callers choose between Continue and Recurse.
template <typename F>
void visit_children(CXCursor parent, F&& f) {
    clang_visitChildren(
        parent,
        [](CXCursor child, CXCursor p, CXClientData data) -> CXChildVisitResult {
            return (*static_cast<F*>(data))(child, p);
        },
        &f);
}

inline bool is_null(CXCursor c);

// True when the cursor carries [[clang::annotate("btforge::kernel")]] (BT_KERNEL).
inline bool has_kernel_annotation(CXCursor c);
// True when the cursor carries [[clang::annotate("btforge::cold")]] (BT_COLD).
inline bool has_cold_annotation(CXCursor c);

// "btforge::quantize"; anonymous namespaces and inline namespaces (std::__cxx11)
// are left out, so names read as they are written in the reference.
inline std::string qualified_name(CXCursor c);

// Where the C and C++ standard libraries declare what the rules name: namespace
// std (possibly inside one of its inline namespaces, std::__cxx11), or the
// global scope (extern "C" blocks included).
inline bool in_std_namespace(CXCursor c);
inline bool at_global_scope(CXCursor c);

// A file position resolved through macro expansions to where the code is written.
struct FilePosition {
    CXFile file = nullptr;
    unsigned line = 0;
    unsigned column = 0;
    unsigned offset = 0;
};
inline FilePosition file_position(CXSourceLocation loc);

// Maps absolute file names to paths relative to the repository root; files
// outside it (system headers) are not part of the reference.
class PathMapper {
public:
    explicit PathMapper(std::filesystem::path root);
    // Empty when `file` is not under the root.
    std::string relative(CXFile file) const;
    std::string relative(const std::string& absolute) const;

private:
    std::filesystem::path root_;
    std::filesystem::path canonical_root_;
    mutable std::unordered_map<CXFile, std::string> cache_;
};

inline std::string take(CXString s) {
    const char* c = clang_getCString(s);
    std::string out = c != nullptr ? c : "";
    clang_disposeString(s);
    return out;
}

inline std::string spelling(CXCursor c) { return take(clang_getCursorSpelling(c)); }

inline std::string type_spelling(CXType t) { return take(clang_getTypeSpelling(t)); }

inline bool is_null(CXCursor c) { return clang_Cursor_isNull(c) != 0 || clang_isInvalid(clang_getCursorKind(c)) != 0; }

namespace detail {

inline bool has_annotation(CXCursor c, const char* text) {
    bool found = false;
    visit_children(c, [&](CXCursor child, CXCursor) {
        if (clang_getCursorKind(child) == CXCursor_AnnotateAttr && spelling(child) == text) {
            found = true;
            return CXChildVisit_Break;
        }
        return CXChildVisit_Continue;
    });
    return found;
}


inline bool is_scope(CXCursorKind k) {
    return k == CXCursor_Namespace || k == CXCursor_StructDecl || k == CXCursor_ClassDecl ||
           k == CXCursor_UnionDecl || k == CXCursor_ClassTemplate || k == CXCursor_EnumDecl ||
           k == CXCursor_ClassTemplatePartialSpecialization;
}

// Namespaces from the innermost outwards, skipping the inline ones.
inline std::vector<CXCursor> enclosing_namespaces(CXCursor c) {
    std::vector<CXCursor> out;
    for (CXCursor p = clang_getCursorSemanticParent(c); !is_null(p) && clang_getCursorKind(p) != CXCursor_TranslationUnit;
         p = clang_getCursorSemanticParent(p)) {
        if (clang_getCursorKind(p) == CXCursor_Namespace && clang_Cursor_isInlineNamespace(p) == 0) out.push_back(p);
    }
    return out;
}

}  // namespace detail

inline bool has_kernel_annotation(CXCursor c) { return detail::has_annotation(c, "btforge::kernel"); }
inline bool has_cold_annotation(CXCursor c) { return detail::has_annotation(c, "btforge::cold"); }

inline std::string qualified_name(CXCursor c) {
    std::vector<std::string> parts{spelling(c)};
    for (CXCursor p = clang_getCursorSemanticParent(c); !is_null(p) && clang_getCursorKind(p) != CXCursor_TranslationUnit;
         p = clang_getCursorSemanticParent(p)) {
        CXCursorKind k = clang_getCursorKind(p);
        if (!detail::is_scope(k)) continue;
        if (k == CXCursor_Namespace && (clang_Cursor_isInlineNamespace(p) != 0 || clang_Cursor_isAnonymous(p) != 0)) {
            continue;
        }
        parts.push_back(spelling(p));
    }
    std::string out;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
        if (!out.empty()) out += "::";
        out += *it;
    }
    return out;
}

inline bool in_std_namespace(CXCursor c) {
    std::vector<CXCursor> ns = detail::enclosing_namespaces(c);
    return !ns.empty() && spelling(ns.back()) == "std";
}

inline bool at_global_scope(CXCursor c) {
    CXCursor p = clang_getCursorSemanticParent(c);
    // extern "C" blocks are transparent: the C library declares inside them.
    // libclang shows a linkage specification as LinkageSpec or as UnexposedDecl.
    while (!is_null(p) && (clang_getCursorKind(p) == CXCursor_LinkageSpec ||
                           clang_getCursorKind(p) == CXCursor_UnexposedDecl)) {
        p = clang_getCursorSemanticParent(p);
    }
    return is_null(p) || clang_getCursorKind(p) == CXCursor_TranslationUnit;
}

inline FilePosition file_position(CXSourceLocation loc) {
    FilePosition out;
    clang_getFileLocation(loc, &out.file, &out.line, &out.column, &out.offset);
    return out;
}

inline PathMapper::PathMapper(std::filesystem::path root) {
    std::error_code ec;
    root_ = std::filesystem::absolute(std::move(root), ec).lexically_normal();
    if (!root_.has_filename()) root_ = root_.parent_path();
    canonical_root_ = std::filesystem::weakly_canonical(root_, ec);
}

inline std::string PathMapper::relative(CXFile file) const {
    if (file == nullptr) return {};
    auto it = cache_.find(file);
    if (it != cache_.end()) return it->second;
    std::string out = relative(take(clang_getFileName(file)));
    cache_.emplace(file, out);
    return out;
}

// Note [Relative paths]
// clang names a file as it found it: the -I root joined with the include
// spelling, so a lexical comparison holds even when the root is reached
// through symbolic links; the canonical comparison covers files named some
// other way (a symlink farm around the root resolves to the same files).
inline std::string PathMapper::relative(const std::string& absolute) const {
    auto under = [](const std::filesystem::path& root, const std::filesystem::path& p) -> std::string {
        auto [root_end, _] = std::mismatch(root.begin(), root.end(), p.begin(), p.end());
        if (root_end != root.end()) return {};
        return p.lexically_relative(root).generic_string();
    };
    std::error_code ec;
    std::filesystem::path p = std::filesystem::path(absolute).lexically_normal();
    if (std::string rel = under(root_, p); !rel.empty()) return rel;
    std::filesystem::path canonical = std::filesystem::weakly_canonical(p, ec);
    if (ec) return {};
    return under(canonical_root_, canonical);
}

}  // namespace btforge::gen::clang_util
