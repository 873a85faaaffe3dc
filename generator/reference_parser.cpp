#include "generator/reference_parser.h"

#include <clang-c/Index.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string_view>
#include <system_error>
#include <unordered_set>
#include <utility>

#include "generator/clang_util.h"
#include "generator/guarded_uses.h"
#include "generator/subset_rules.h"

namespace btforge::gen {

namespace {

using namespace clang_util;

// The translation unit's main file exists only in memory; it sits at the root
// so that its quoted includes resolve like the reference's own.
constexpr std::string_view kMainFileName = "btforge_gen_main.cpp";

struct IndexDeleter {
    void operator()(void* index) const { clang_disposeIndex(index); }
};
struct TranslationUnitDeleter {
    void operator()(CXTranslationUnit tu) const { clang_disposeTranslationUnit(tu); }
};
using IndexPtr = std::unique_ptr<void, IndexDeleter>;
using TranslationUnitPtr = std::unique_ptr<CXTranslationUnitImpl, TranslationUnitDeleter>;

// Note [Clang resource directory]
// libclang looks for its builtin headers (stddef.h, ...) relative to the path
// it was loaded from; on Debian libclang.so is a symlink into the multiarch
// directory, where that lookup misses. The build compiles in the right
// directory; without it the usual llvm install locations are searched.
std::string resource_dir() {
#ifdef BTFORGE_CLANG_RESOURCE_DIR
    return BTFORGE_CLANG_RESOURCE_DIR;
#else
    std::error_code ec;
    for (const char* llvm : {"/usr/lib/llvm-14", "/usr/lib/llvm-15", "/usr/lib/llvm-16"}) {
        std::filesystem::path base = std::filesystem::path(llvm) / "lib" / "clang";
        if (!std::filesystem::is_directory(base, ec)) continue;
        std::set<std::filesystem::path> versions;
        for (const auto& entry : std::filesystem::directory_iterator(base, ec)) versions.insert(entry.path());
        for (auto it = versions.rbegin(); it != versions.rend(); ++it) {
            if (std::filesystem::exists(*it / "include" / "stddef.h", ec)) return it->string();
        }
    }
    return {};
#endif
}

std::string format_diagnostic(CXDiagnostic d, const PathMapper& paths) {
    FilePosition p = file_position(clang_getDiagnosticLocation(d));
    std::string file = paths.relative(p.file);
    if (file.empty() && p.file != nullptr) file = take(clang_getFileName(p.file));
    if (file.empty()) file = "<command line>";
    return file + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) + ": " +
           take(clang_getDiagnosticSpelling(d));
}

void throw_on_errors(CXTranslationUnit tu, const PathMapper& paths) {
    std::string errors;
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; ++i) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) errors += "\n" + format_diagnostic(d, paths);
        clang_disposeDiagnostic(d);
    }
    if (!errors.empty()) throw std::runtime_error("btforge-gen: the reference does not compile:" + errors);
}

std::string usr_of(CXCursor c) { return take(clang_getCursorUSR(c)); }

bool is_main_file(const std::string& relative) { return relative == kMainFileName; }

std::optional<Entity::Kind> entity_kind(CXCursor c) {
    switch (clang_getCursorKind(c)) {
        case CXCursor_StructDecl:
        case CXCursor_ClassDecl:
        case CXCursor_UnionDecl:
            return Entity::Kind::Struct;
        case CXCursor_EnumDecl:
            return Entity::Kind::Enum;
        case CXCursor_VarDecl:
            return Entity::Kind::Constant;
        case CXCursor_FunctionDecl:
        case CXCursor_FunctionTemplate:
            return Entity::Kind::Function;
        default:
            return std::nullopt;
    }
}

class Collector {
public:
    explicit Collector(const PathMapper& paths) : paths_(paths) {}

    void collect(CXCursor parent) {
        visit_children(parent, [&](CXCursor c, CXCursor) {
            CXCursorKind k = clang_getCursorKind(c);
            if (k == CXCursor_Namespace || k == CXCursor_LinkageSpec) {
                std::string file = paths_.relative(file_position(clang_getCursorLocation(c)).file);
                // System headers declare nothing marked: skipping them keeps the walk small.
                if (!file.empty()) collect(c);
                return CXChildVisit_Continue;
            }
            std::optional<Entity::Kind> kind = entity_kind(c);
            if (!kind) return CXChildVisit_Continue;
            // Functions and types count once, at their definition; a
            // forward declaration carries no text worth emitting.
            if (k != CXCursor_VarDecl && clang_isCursorDefinition(c) == 0) return CXChildVisit_Continue;
            std::string file = paths_.relative(file_position(clang_getCursorLocation(c)).file);
            if (file.empty() || is_main_file(file) || !has_kernel_annotation(c)) return CXChildVisit_Continue;
            std::string usr = usr_of(c);
            if (!usrs_.insert(usr).second) return CXChildVisit_Continue;
            marked_.push_back(MarkedCursor{c, *kind, qualified_name(c)});
            return CXChildVisit_Continue;
        });
    }

    std::vector<MarkedCursor> marked_;
    std::unordered_set<std::string> usrs_;

private:
    const PathMapper& paths_;
};

Token::Kind token_kind(CXTokenKind k) {
    switch (k) {
        case CXToken_Punctuation:
            return Token::Kind::Punctuation;
        case CXToken_Keyword:
            return Token::Kind::Keyword;
        case CXToken_Literal:
            return Token::Kind::Literal;
        default:
            return Token::Kind::Identifier;
    }
}

bool ends_with_semicolon(Entity::Kind kind) { return kind != Entity::Kind::Function; }

// Fills text and tokens.
//
// Note [Entity text]
// The text runs from the start of the attached comment
// (clang_Cursor_getCommentRange, which with -fparse-all-comments includes
// ordinary // lines directly above) or of the declaration, to the end of the declaration including the `;` that ends a
// struct, enum or variable. Offsets are byte offsets into the file, so the
// text is the file's bytes exactly and comments between tokens survive.
void fill_text(CXTranslationUnit tu, CXCursor c, Entity& e) {
    CXSourceRange extent = clang_getCursorExtent(c);
    FilePosition begin = file_position(clang_getRangeStart(extent));
    FilePosition end = file_position(clang_getRangeEnd(extent));
    // clang leaves a leading [[...]] attribute (BT_KERNEL before `inline`)
    // out of the declaration's extent; the marker belongs to the text.
    visit_children(c, [&](CXCursor child, CXCursor) {
        if (clang_getCursorKind(child) != CXCursor_AnnotateAttr) return CXChildVisit_Continue;
        FilePosition a = file_position(clang_getRangeStart(clang_getCursorExtent(child)));
        if (a.file != nullptr && clang_File_isEqual(a.file, begin.file) != 0 && a.offset < begin.offset) begin = a;
        return CXChildVisit_Continue;
    });
    CXSourceRange comment = clang_Cursor_getCommentRange(c);
    if (clang_Range_isNull(comment) == 0) {
        FilePosition cb = file_position(clang_getRangeStart(comment));
        if (cb.file != nullptr && clang_File_isEqual(cb.file, begin.file) != 0 && cb.offset < begin.offset) begin = cb;
    }
    std::size_t size = 0;
    const char* contents = clang_getFileContents(tu, begin.file, &size);
    if (contents == nullptr) return;
    std::string_view file(contents, size);
    std::size_t stop = std::min<std::size_t>(end.offset, size);
    if (ends_with_semicolon(e.kind)) {
        std::size_t i = stop;
        while (i < size && (file[i] == ' ' || file[i] == '\t' || file[i] == '\n' || file[i] == '\r')) ++i;
        if (i < size && file[i] == ';') stop = i + 1;
    }
    e.text = std::string(file.substr(begin.offset, stop - begin.offset));

    CXSourceRange range = clang_getRange(clang_getLocationForOffset(tu, begin.file, begin.offset),
                                         clang_getLocationForOffset(tu, begin.file, static_cast<unsigned>(stop)));
    CXToken* tokens = nullptr;
    unsigned n = 0;
    clang_tokenize(tu, range, &tokens, &n);
    for (unsigned i = 0; i < n; ++i) {
        CXTokenKind kind = clang_getTokenKind(tokens[i]);
        if (kind == CXToken_Comment) continue;
        FilePosition p = file_position(clang_getTokenLocation(tu, tokens[i]));
        if (p.offset < begin.offset || p.offset >= stop) continue;
        e.tokens.push_back(Token{token_kind(kind), take(clang_getTokenSpelling(tu, tokens[i])), p.offset - begin.offset});
    }
    clang_disposeTokens(tu, tokens, n);
}

void fill_layout(CXCursor c, const PathMapper& paths, Entity& e) {
    CXType t = clang_getCursorType(c);
    long long size = clang_Type_getSizeOf(t);
    long long align = clang_Type_getAlignOf(t);
    e.size = size > 0 ? static_cast<std::uint64_t>(size) : 0;
    e.alignment = align > 0 ? static_cast<std::uint64_t>(align) : 0;
    visit_children(c, [&](CXCursor f, CXCursor) {
        if (clang_getCursorKind(f) != CXCursor_FieldDecl) return CXChildVisit_Continue;
        CXType ft = clang_getCursorType(f);
        long long offset_bits = clang_Cursor_getOffsetOfField(f);
        long long field_size = clang_Type_getSizeOf(ft);
        FilePosition at = file_position(clang_getCursorLocation(f));
        e.fields.push_back(Field{spelling(f), type_spelling(clang_getCanonicalType(ft)),
                                 offset_bits >= 0 ? static_cast<std::uint64_t>(offset_bits / 8) : 0,
                                 field_size > 0 ? static_cast<std::uint64_t>(field_size) : 0,
                                 SourceLocation{paths.relative(at.file), at.line, at.column}});
        return CXChildVisit_Continue;
    });
}

void fill_parameters(CXCursor c, Entity& e) {
    int n = clang_Cursor_getNumArguments(c);
    for (int i = 0; i < n; ++i) {
        CXCursor arg = clang_Cursor_getArgument(c, static_cast<unsigned>(i));
        e.parameters.push_back(Parameter{spelling(arg), type_spelling(clang_getCanonicalType(clang_getCursorType(arg)))});
    }
}

void fill_callees(CXCursor c, const std::unordered_set<std::string>& marked, Entity& e) {
    visit_children(c, [&](CXCursor child, CXCursor) {
        if (clang_getCursorKind(child) == CXCursor_CallExpr) {
            CXCursor ref = clang_getCursorReferenced(child);
            CXCursorKind rk = clang_getCursorKind(ref);
            if (!is_null(ref) && (rk == CXCursor_FunctionDecl || rk == CXCursor_FunctionTemplate) &&
                marked.count(usr_of(ref)) != 0) {
                std::string name = qualified_name(ref);
                if (std::find(e.callees.begin(), e.callees.end(), name) == e.callees.end()) e.callees.push_back(name);
            }
        }
        return CXChildVisit_Recurse;
    });
}

}  // namespace

ReferenceModel parse_reference(const ParseOptions& options) {
    std::error_code ec;
    std::filesystem::path root = std::filesystem::absolute(options.repository_root, ec).lexically_normal();
    if (ec || !std::filesystem::is_directory(root)) {
        throw std::runtime_error("btforge-gen: repository root not found: " + options.repository_root.string());
    }
    if (!root.has_filename()) root = root.parent_path();
    PathMapper paths(root);

    const std::string main_file = (root / kMainFileName).string();
    std::string main_contents;
    for (const std::string& header : options.entry_headers) main_contents += "#include \"" + header + "\"\n";

    std::vector<std::string> args{"-x", "c++", "-std=c++20", "-fparse-all-comments", "-I" + root.string()};
    if (std::string dir = resource_dir(); !dir.empty()) {
        args.push_back("-resource-dir");
        args.push_back(dir);
    }
    args.insert(args.end(), options.extra_clang_args.begin(), options.extra_clang_args.end());
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());

    IndexPtr index(clang_createIndex(/*excludeDeclarationsFromPCH=*/0, /*displayDiagnostics=*/0));
    CXUnsavedFile unsaved{main_file.c_str(), main_contents.c_str(), static_cast<unsigned long>(main_contents.size())};
    CXTranslationUnit raw_tu = nullptr;
    CXErrorCode status =
        clang_parseTranslationUnit2(index.get(), main_file.c_str(), argv.data(), static_cast<int>(argv.size()),
                                    &unsaved, 1, CXTranslationUnit_None, &raw_tu);
    if (status != CXError_Success || raw_tu == nullptr) {
        throw std::runtime_error("btforge-gen: libclang could not parse the reference (error " +
                                 std::to_string(static_cast<int>(status)) + ")");
    }
    TranslationUnitPtr tu(raw_tu);
    throw_on_errors(tu.get(), paths);

    Collector collector(paths);
    collector.collect(clang_getTranslationUnitCursor(tu.get()));

    ReferenceModel model;
    for (const MarkedCursor& m : collector.marked_) {
        Entity e;
        e.kind = m.kind;
        e.name = spelling(m.cursor);
        e.qualified_name = m.qualified_name;
        FilePosition p = file_position(clang_getCursorLocation(m.cursor));
        e.location = SourceLocation{paths.relative(p.file), p.line, p.column};
        fill_text(tu.get(), m.cursor, e);
        if (e.kind == Entity::Kind::Struct) {
            fill_layout(m.cursor, paths, e);
            fill_struct_instances(m.cursor, collector.usrs_, paths, e);
        }
        if (e.kind == Entity::Kind::Function) {
            fill_parameters(m.cursor, e);
            fill_callees(m.cursor, collector.usrs_, e);
            fill_guarded_uses(tu.get(), m.cursor, collector.usrs_, paths, e);  // Note [Guarded uses]
        }
        model.entities.push_back(std::move(e));
    }

    SubsetInput input;
    input.paths = &paths;
    input.marked = collector.marked_;
    input.marked_usrs = collector.usrs_;
    model.violations = check_device_subset(input);

    std::set<std::string> files;
    auto on_inclusion = [](CXFile included, CXSourceLocation*, unsigned, CXClientData data) {
        static_cast<std::vector<CXFile>*>(data)->push_back(included);
    };
    std::vector<CXFile> included;
    clang_getInclusions(tu.get(), on_inclusion, &included);
    for (CXFile f : included) {
        std::string rel = paths.relative(f);
        if (!rel.empty() && !is_main_file(rel)) files.insert(rel);
    }
    model.input_files.assign(files.begin(), files.end());
    return model;
}

}  // namespace btforge::gen
