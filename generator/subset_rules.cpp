#include "generator/subset_rules.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace btforge::gen {

namespace {

using namespace clang_util;

const std::set<std::string_view> kContainers = {
    "vector",        "deque",         "list",          "forward_list",       "map",          "multimap",
    "set",           "multiset",      "unordered_map", "unordered_multimap", "unordered_set", "unordered_multiset",
    "span",          "queue",         "stack",         "priority_queue",     "valarray",     "unique_ptr",
    "shared_ptr",    "weak_ptr",      "function",      "any",
};
const std::set<std::string_view> kStrings = {"basic_string", "basic_string_view"};
const std::set<std::string_view> kStreams = {
    "basic_ios",          "ios_base",           "basic_ostream",     "basic_istream",      "basic_iostream",
    "basic_ofstream",     "basic_ifstream",     "basic_fstream",     "basic_stringstream", "basic_ostringstream",
    "basic_istringstream", "basic_streambuf",   "basic_filebuf",     "basic_stringbuf",
};
// The C library's FILE, as the common C libraries name its record.
const std::set<std::string_view> kFileRecords = {"_IO_FILE", "FILE", "__sFILE"};
const std::set<std::string_view> kHeapFunctions = {"malloc", "calloc", "realloc", "free", "aligned_alloc"};
const std::set<std::string_view> kIoFunctions = {
    "printf",  "fprintf", "sprintf", "snprintf", "vprintf", "vfprintf", "vsprintf", "vsnprintf", "dprintf",
    "puts",    "fputs",   "putchar", "fputc",    "putc",    "perror",   "fopen",    "freopen",   "fclose",
    "fflush",  "fread",   "fwrite",  "fgets",    "fgetc",   "getc",     "getchar",  "gets",      "scanf",
    "fscanf",  "sscanf",  "vscanf",  "vfscanf",  "fseek",   "ftell",    "rewind",   "fgetpos",   "fsetpos",
    "remove",  "rename",  "tmpfile", "tmpnam",   "setbuf",  "setvbuf",  "ungetc",   "feof",      "ferror",
    "clearerr", "open",   "close",   "read",     "write",
};
// countr_zero: the index of a word's lowest set bit (C++20 <bit>), one
// instruction on both sides (Note [Device rewrites]).
const std::set<std::string_view> kAllowedMath = {"sqrt", "fabs", "round", "floor", "ceil",
                                                 "fmin", "fmax", "isnan", "countr_zero"};
// Note [Portable transcendentals] (reference/math/portable_exp.h): the C
// library's transcendentals differ between glibc and CUDA; these have a
// portable version in the reference, the rest none yet.
const std::map<std::string_view, std::string_view> kPortableVersions = {
    {"exp", "portable_exp (reference/math/portable_exp.h)"},
    {"expm1", "portable_expm1 (reference/math/portable_exp.h)"},
    {"log", "portable_log (reference/math/portable_log.h)"},
    {"pow", "portable_pow (reference/math/portable_pow.h)"},
    {"tanh", "portable_tanh (reference/math/portable_tanh.h)"},
};
const std::set<std::string_view> kTranscendentals = {
    "exp",  "expm1", "exp2",  "log",   "log1p", "log2",  "log10", "pow",   "sin",   "cos",    "tan",
    "asin", "acos",  "atan",  "atan2", "sinh",  "cosh",  "tanh",  "asinh", "acosh", "atanh", "cbrt",
    "hypot", "erf",  "erfc",  "lgamma", "tgamma",
};

// What a type is, for the rules that look at types.
struct TypeClass {
    std::string rule;  // "container", "std-string", "io", "non-pod"; empty when allowed
    std::string what;  // how the explanation names it, e.g. "std::vector"
};

CXType strip_indirection(CXType t, bool through_pointers) {
    for (;;) {
        t = clang_getCanonicalType(t);
        switch (t.kind) {
            case CXType_Pointer:
                if (!through_pointers) return t;
                t = clang_getPointeeType(t);
                break;
            case CXType_LValueReference:
            case CXType_RValueReference:
                t = clang_getPointeeType(t);
                break;
            case CXType_ConstantArray:
            case CXType_IncompleteArray:
            case CXType_VariableArray:
            case CXType_DependentSizedArray:
                t = clang_getArrayElementType(t);
                break;
            default:
                return t;
        }
    }
}

bool is_record(CXCursorKind k) {
    return k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_UnionDecl ||
           k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization;
}

// The name of a record, or of the template it specializes.
std::string record_name(CXCursor decl) {
    CXCursor tmpl = clang_getSpecializedCursorTemplate(decl);
    return spelling(is_null(tmpl) ? decl : tmpl);
}

bool same_record(CXType a, CXCursor record) {
    return clang_equalCursors(clang_getTypeDeclaration(clang_getCanonicalType(a)), record) != 0 ||
           clang_equalCursors(clang_getCanonicalCursor(clang_getTypeDeclaration(clang_getCanonicalType(a))),
                              clang_getCanonicalCursor(record)) != 0;
}

// Why a record is not trivially copyable and standard layout, and where; an
// empty reason when it is both.
struct PodProblem {
    std::string reason;
    CXCursor at = clang_getNullCursor();
};

class PodOracle {
public:
    // Note [Trivially copyable and standard layout]
    // libclang exposes neither trait, and clang_isPODType also demands a
    // trivial default constructor, which default member initializers break
    // although the bytes still copy as they are. The check follows the
    // definitions over what libclang shows: user-written (not defaulted)
    // copy/move constructors, copy/move assignments or destructors, virtual
    // functions or bases, reference members, mixed access of data members, and
    // recursively the same for bases and fields of class type.
    PodProblem check(CXCursor record) {
        record = clang_getCanonicalCursor(clang_getCursorDefinition(record));
        if (is_null(record)) return {};
        std::string usr = take(clang_getCursorUSR(record));
        if (auto it = memo_.find(usr); it != memo_.end()) return it->second;
        memo_[usr] = PodProblem{};  // a self-referencing record is checked once
        PodProblem p = compute(clang_getCursorDefinition(record));
        memo_[usr] = p;
        return p;
    }

private:
    PodProblem compute(CXCursor record) {
        PodProblem found;
        std::optional<CX_CXXAccessSpecifier> access;
        visit_children(record, [&](CXCursor c, CXCursor) {
            if (!found.reason.empty()) return CXChildVisit_Break;
            switch (clang_getCursorKind(c)) {
                case CXCursor_CXXMethod:
                    if (clang_CXXMethod_isVirtual(c) != 0) {
                        found = {"virtual member function '" + spelling(c) + "'", c};
                    } else if (spelling(c) == "operator=" && clang_CXXMethod_isDefaulted(c) == 0 &&
                               clang_Cursor_getNumArguments(c) == 1 &&
                               same_record(strip_indirection(clang_getCursorType(clang_Cursor_getArgument(c, 0)), false),
                                           record)) {
                        found = {"user-written assignment operator", c};
                    }
                    break;
                case CXCursor_Destructor:
                    if (clang_CXXMethod_isDefaulted(c) == 0 || clang_CXXMethod_isVirtual(c) != 0) {
                        found = {"user-written destructor", c};
                    }
                    break;
                case CXCursor_Constructor:
                    if ((clang_CXXConstructor_isCopyConstructor(c) != 0 ||
                         clang_CXXConstructor_isMoveConstructor(c) != 0) &&
                        clang_CXXMethod_isDefaulted(c) == 0) {
                        found = {"user-written copy or move constructor", c};
                    }
                    break;
                case CXCursor_CXXBaseSpecifier: {
                    if (clang_isVirtualBase(c) != 0) {
                        found = {"virtual base class", c};
                        break;
                    }
                    CXCursor base = clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(c)));
                    PodProblem inner = check(base);
                    if (!inner.reason.empty()) found = {"base class '" + spelling(base) + "' with " + inner.reason, c};
                    break;
                }
                case CXCursor_FieldDecl: {
                    CX_CXXAccessSpecifier a = clang_getCXXAccessSpecifier(c);
                    if (access && *access != a) {
                        found = {"data members with different access", c};
                        break;
                    }
                    access = a;
                    CXType ft = clang_getCanonicalType(clang_getCursorType(c));
                    if (ft.kind == CXType_LValueReference || ft.kind == CXType_RValueReference) {
                        found = {"reference member '" + spelling(c) + "'", c};
                        break;
                    }
                    CXType element = strip_indirection(ft, false);
                    CXCursor decl = clang_getTypeDeclaration(element);
                    if (element.kind == CXType_Record && !is_null(decl)) {
                        PodProblem inner = check(decl);
                        if (!inner.reason.empty()) {
                            found = {"member '" + spelling(c) + "' of non-POD type '" + type_spelling(element) + "'",
                                     c};
                        }
                    }
                    break;
                }
                default:
                    break;
            }
            return CXChildVisit_Continue;
        });
        return found;
    }

    std::unordered_map<std::string, PodProblem> memo_;
};

class Checker {
public:
    explicit Checker(const SubsetInput& input) : in_(input) {}

    std::vector<Violation> run() {
        for (const MarkedCursor& m : in_.marked) {
            const char* what = m.kind == Entity::Kind::Function ? "function"
                               : m.kind == Entity::Kind::Struct ? "struct"
                                                                : "declaration";
            check_not_cold(m.cursor, what);
            if (m.kind == Entity::Kind::Function) {
                caller_ = take(clang_getCursorUSR(m.cursor));
                names_[caller_] = m.qualified_name;
                order_.push_back(caller_);
                check_function(m.cursor);
            } else if (m.kind == Entity::Kind::Struct) {
                check_struct(m.cursor);
            }
        }
        check_recursion();
        std::sort(out_.begin(), out_.end(), [](const Violation& a, const Violation& b) {
            return std::tie(a.location.file, a.location.line, a.location.column, a.rule, a.explanation) <
                   std::tie(b.location.file, b.location.line, b.location.column, b.rule, b.explanation);
        });
        out_.erase(std::unique(out_.begin(), out_.end(),
                               [](const Violation& a, const Violation& b) {
                                   return a.location.file == b.location.file && a.location.line == b.location.line &&
                                          a.location.column == b.location.column && a.rule == b.rule;
                               }),
                   out_.end());
        return std::move(out_);
    }

private:
    // ---- locations -------------------------------------------------------

    SourceLocation to_location(const FilePosition& p) const {
        std::string file = in_.paths->relative(p.file);
        if (file.empty() && p.file != nullptr) file = take(clang_getFileName(p.file));
        return SourceLocation{file, p.line, p.column};
    }

    SourceLocation at(CXCursor c) const { return to_location(file_position(clang_getCursorLocation(c))); }

    // Where a possibly qualified name starts: `std::cout` is reported at
    // `std`, as a reader would point at it.
    SourceLocation at_qualified(CXCursor c) const {
        FilePosition p = file_position(clang_getCursorLocation(c));
        CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
        std::size_t size = 0;
        const char* contents = p.file != nullptr ? clang_getFileContents(tu, p.file, &size) : nullptr;
        if (contents != nullptr && p.offset <= size) {
            auto ident = [](char ch) {
                return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
            };
            std::size_t i = p.offset;
            while (i >= 2 && contents[i - 1] == ':' && contents[i - 2] == ':') {
                std::size_t j = i - 2;
                while (j > 0 && ident(contents[j - 1])) --j;
                bool leading_colons = j == i - 2;
                i = j;
                if (leading_colons) break;
            }
            p.column -= static_cast<unsigned>(p.offset - i);
        }
        return to_location(p);
    }

    // The start of a declaration's written type (its first type reference),
    // or the declaration's name when the type is not spelled (auto).
    SourceLocation at_type_of(CXCursor decl) const {
        std::optional<SourceLocation> first;
        visit_children(decl, [&](CXCursor c, CXCursor) {
            CXCursorKind k = clang_getCursorKind(c);
            if (k == CXCursor_NamespaceRef || k == CXCursor_TypeRef || k == CXCursor_TemplateRef) {
                first = at_qualified(c);
                return CXChildVisit_Break;
            }
            if (k == CXCursor_ParmDecl || k == CXCursor_CompoundStmt) return CXChildVisit_Break;
            return CXChildVisit_Continue;
        });
        return first ? *first : at(decl);
    }

    void report(SourceLocation loc, std::string rule, std::string explanation) {
        out_.push_back(Violation{std::move(loc), std::move(rule), std::move(explanation)});
    }

    // ---- types -----------------------------------------------------------

    TypeClass classify(CXType t, bool through_pointers = true) {
        CXType base = strip_indirection(t, through_pointers);
        if (base.kind != CXType_Record) return {};
        CXCursor decl = clang_getTypeDeclaration(base);
        if (is_null(decl)) return {};
        std::string name = record_name(decl);
        if (in_std_namespace(decl)) {
            if (kContainers.count(name) != 0) return {"container", "std::" + name};
            if (name == "array") return {"std-array", "std::array"};
            if (kStrings.count(name) != 0) {
                return {"std-string", name == "basic_string" ? "std::string" : "std::string_view"};
            }
            if (kStreams.count(name) != 0) return {"io", "std::" + name};
        }
        if (kFileRecords.count(name) != 0 && at_global_scope(decl)) return {"io", "FILE"};
        if (in_.marked_usrs.count(take(clang_getCursorUSR(decl))) != 0) return {};  // checked as a marked struct
        PodProblem p = pods_.check(decl);
        if (!p.reason.empty()) return {"non-pod", type_spelling(base) + "' (" + p.reason + ")"};
        return {};
    }

    static std::string transcendental_advice(const std::string& name) {
        std::string text = "call to 'std::" + name +
                           "': the C library's transcendentals round differently on the CPU and the GPU; ";
        auto portable = kPortableVersions.find(name);
        if (portable != kPortableVersions.end()) {
            return text + "call btforge::" + std::string(portable->second) + ", bit-identical on both";
        }
        std::string all;
        for (const auto& [_, version] : kPortableVersions) all += (all.empty() ? "" : ", ") + std::string(version.substr(0, version.find(' ')));
        return text + "it has no portable version yet (there are " + all + ")";
    }

    static std::string why(const std::string& rule) {
        if (rule == "container") return "containers and smart pointers own heap memory, which device code does not have";
        if (rule == "std-string") return "strings own heap memory, which device code does not have";
        if (rule == "io") return "device code has no I/O";
        if (rule == "std-array") {
            return "its members are the standard library's host functions, which do not run on the device; declare "
                   "a plain array (double values[4]), which device code indexes the same way";
        }
        return "only trivially copyable, standard-layout types are copied to and from the device as bytes";
    }

    void check_declared_type(CXCursor decl, CXType t, const std::string& what) {
        TypeClass c = classify(t);
        if (c.rule.empty()) return;
        if (c.rule == "non-pod") {
            report(at_type_of(decl), c.rule, what + " of non-POD type '" + c.what + ": " + why(c.rule));
        } else {
            report(at_type_of(decl), c.rule, what + " uses " + c.what + ": " + why(c.rule));
        }
    }

    static bool is_const_object(CXType t) {
        t = clang_getCanonicalType(t);
        while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray || t.kind == CXType_VariableArray) {
            t = clang_getCanonicalType(clang_getArrayElementType(t));
        }
        return clang_isConstQualifiedType(t) != 0;
    }

    // ---- structs ---------------------------------------------------------

    void check_struct(CXCursor record) {
        std::optional<CX_CXXAccessSpecifier> access;
        std::string name = spelling(record);
        visit_children(record, [&](CXCursor c, CXCursor) {
            switch (clang_getCursorKind(c)) {
                case CXCursor_FieldDecl: {
                    check_cold_placement(c);
                    CX_CXXAccessSpecifier a = clang_getCXXAccessSpecifier(c);
                    if (access && *access != a) {
                        report(at(c), "non-pod",
                               "marked struct '" + name + "' mixes public and private data members: " + why("non-pod"));
                    }
                    access = a;
                    CXType ft = clang_getCanonicalType(clang_getCursorType(c));
                    if (ft.kind == CXType_LValueReference || ft.kind == CXType_RValueReference) {
                        report(at(c), "non-pod", "reference member '" + spelling(c) + "' in marked struct '" + name +
                                                     "': " + why("non-pod"));
                        break;
                    }
                    // A pointer member is a plain address; only what the struct contains must be POD.
                    TypeClass tc = classify(ft, /*through_pointers=*/true);
                    if (tc.rule == "non-pod") tc = classify(ft, /*through_pointers=*/false);
                    if (tc.rule == "non-pod") {
                        report(at_type_of(c), tc.rule, "member '" + spelling(c) + "' of non-POD type '" + tc.what +
                                                           ": " + why(tc.rule));
                    } else if (!tc.rule.empty()) {
                        report(at_type_of(c), tc.rule, "member '" + spelling(c) + "' uses " + tc.what + ": " + why(tc.rule));
                    }
                    break;
                }
                case CXCursor_VarDecl:
                    if (!is_const_object(clang_getCursorType(c))) {
                        report(at(c), "static-mutable-state",
                               "static data member '" + spelling(c) + "' is mutable: device threads would race on it");
                    }
                    break;
                case CXCursor_CXXMethod:
                case CXCursor_Destructor:
                    if (clang_CXXMethod_isVirtual(c) != 0) {
                        report(at(c), "rtti-virtual", "virtual member function '" + spelling(c) +
                                                          "' in marked struct '" + name +
                                                          "': device structs are plain bytes without vtables");
                    } else if (clang_getCursorKind(c) == CXCursor_Destructor && clang_CXXMethod_isDefaulted(c) == 0) {
                        report(at(c), "non-pod", "user-written destructor in marked struct '" + name + "': " +
                                                     why("non-pod"));
                    } else if (spelling(c) == "operator=" && clang_CXXMethod_isDefaulted(c) == 0 &&
                               clang_Cursor_getNumArguments(c) == 1 &&
                               same_record(strip_indirection(clang_getCursorType(clang_Cursor_getArgument(c, 0)), false),
                                           record)) {
                        report(at(c), "non-pod", "user-written assignment operator in marked struct '" + name +
                                                     "': " + why("non-pod"));
                    }
                    if (clang_isCursorDefinition(c) != 0) check_body(c);
                    break;
                case CXCursor_Constructor:
                    if ((clang_CXXConstructor_isCopyConstructor(c) != 0 ||
                         clang_CXXConstructor_isMoveConstructor(c) != 0) &&
                        clang_CXXMethod_isDefaulted(c) == 0) {
                        report(at(c), "non-pod", "user-written copy or move constructor in marked struct '" + name +
                                                     "': " + why("non-pod"));
                    }
                    if (clang_isCursorDefinition(c) != 0) check_body(c);
                    break;
                case CXCursor_CXXBaseSpecifier: {
                    if (clang_isVirtualBase(c) != 0) {
                        report(at(c), "rtti-virtual", "virtual base class in marked struct '" + name +
                                                          "': device structs are plain bytes without vtables");
                        break;
                    }
                    CXCursor base = clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(c)));
                    PodProblem p = pods_.check(base);
                    if (!p.reason.empty()) {
                        report(at(c), "non-pod", "marked struct '" + name + "' derives from '" + spelling(base) +
                                                     "' with " + p.reason + ": " + why("non-pod"));
                    }
                    break;
                }
                default:
                    break;
            }
            return CXChildVisit_Continue;
        });
    }

    // ---- functions -------------------------------------------------------

    void check_function(CXCursor fn) {
        CXType result = clang_getResultType(clang_getCursorType(fn));
        TypeClass tc = classify(result);
        if (!tc.rule.empty()) {
            std::string what = tc.rule == "non-pod" ? "returns non-POD type '" + tc.what : "returns " + tc.what;
            report(at_type_of(fn), tc.rule, "function '" + spelling(fn) + "' " + what + ": " + why(tc.rule));
        }
        check_body(fn);
    }

    void check_body(CXCursor fn) {
        visit_children(fn, [&](CXCursor c, CXCursor parent) {
            switch (clang_getCursorKind(c)) {
                case CXCursor_ParmDecl:
                    check_declared_type(c, clang_getCursorType(c), "parameter '" + spelling(c) + "'");
                    check_not_cold(c, "parameter");
                    break;
                case CXCursor_VarDecl:
                    check_local(c);
                    check_not_cold(c, "variable");
                    break;
                case CXCursor_CXXNewExpr:
                    report(at(c), "heap-allocation", "'new' expression: device code has no heap");
                    break;
                case CXCursor_CXXDeleteExpr:
                    report(at(c), "heap-allocation", "'delete' expression: device code has no heap");
                    break;
                case CXCursor_CXXThrowExpr:
                    report(at(c), "exception", "'throw' expression: device code has no exceptions");
                    break;
                case CXCursor_CXXTryStmt:
                    report(at(c), "exception", "try/catch block: device code has no exceptions");
                    break;
                case CXCursor_CXXTypeidExpr:
                    report(at(c), "rtti-virtual", "'typeid': device code has no run-time type information");
                    break;
                case CXCursor_CXXDynamicCastExpr:
                    report(at(c), "rtti-virtual", "'dynamic_cast': device code has no run-time type information");
                    break;
                case CXCursor_LambdaExpr:
                    // Its calls are said here, once (check_call skips them).
                    report(at(c), "lambda",
                           "a lambda: its call operator is not BT_KERNEL code, so the generator cannot put it on the "
                           "device; write a BT_KERNEL inline function beside this one and call that");
                    break;
                case CXCursor_CallExpr:
                    check_call(c, parent);
                    break;
                case CXCursor_DeclRefExpr:
                    check_variable_use(c);
                    break;
                default:
                    break;
            }
            return CXChildVisit_Recurse;
        });
    }

    // BT_COLD means something on a field of a marked struct only (Note
    // [Cold fields]); a cold local or parameter would be `volatile` on the
    // GPU, every use a memory access, for nothing.
    void check_not_cold(CXCursor decl, const char* what) {
        if (has_cold_annotation(decl)) {
            report(at(decl), "cold-field", std::string("BT_COLD on ") + what + " '" + spelling(decl) +
                                               "': only fields of marked structs can be cold");
        }
    }

    // btforge-gen writes the qualifier before the field's name, so the
    // marker must come before it too: `BT_COLD double x;`, not `double x BT_COLD;`.
    void check_cold_placement(CXCursor field) {
        visit_children(field, [&](CXCursor child, CXCursor) {
            if (clang_getCursorKind(child) == CXCursor_AnnotateAttr && spelling(child) == "btforge::cold" &&
                file_position(clang_getCursorLocation(child)).offset >
                    file_position(clang_getCursorLocation(field)).offset) {
                report(at(child), "cold-field",
                       "BT_COLD after the name of field '" + spelling(field) + "': write it before the field's type");
            }
            return CXChildVisit_Continue;
        });
    }

    void check_local(CXCursor var) {
        CXType t = clang_getCursorType(var);
        std::string name = spelling(var);
        if (clang_getCanonicalType(t).kind == CXType_VariableArray) {
            report(at(var), "variable-length-array",
                   "variable-length array '" + name + "': device arrays need a compile-time size");
            return;
        }
        bool is_static = clang_Cursor_getStorageClass(var) == CX_SC_Static || clang_getCursorTLSKind(var) != CXTLS_None;
        if (is_static && !is_const_object(t)) {
            report(at(var), "static-mutable-state",
                   "static local variable '" + name + "' is mutable: device threads would race on it");
        }
        check_declared_type(var, t, "variable '" + name + "'");
    }

    void check_variable_use(CXCursor ref_expr) {
        CXCursor var = clang_getCursorReferenced(ref_expr);
        if (is_null(var) || clang_getCursorKind(var) != CXCursor_VarDecl) return;
        CXCursor parent = clang_getCursorSemanticParent(var);
        CXCursorKind pk = clang_getCursorKind(parent);
        bool global = is_null(parent) || pk == CXCursor_TranslationUnit || pk == CXCursor_Namespace ||
                      pk == CXCursor_LinkageSpec;
        bool static_member = is_record(pk);
        if (!global && !static_member) return;
        CXType t = clang_getCursorType(var);
        TypeClass tc = classify(t);
        if (tc.rule == "io") {
            report(at_qualified(ref_expr), "io", "use of '" + qualified_name(var) + "': " + why("io"));
            return;
        }
        if (!is_const_object(t)) {
            report(at_qualified(ref_expr), "static-mutable-state",
                   "use of non-const global variable '" + qualified_name(var) +
                       "': device threads would race on shared mutable state");
        }
    }

    // The closure type of a lambda: libclang names it "(lambda at FILE:LINE:COL)".
    static bool is_lambda_class(CXCursor record) {
        if (!is_record(clang_getCursorKind(record))) return false;
        return take(clang_getTypeSpelling(clang_getCursorType(record))).find("(lambda at ") != std::string::npos;
    }

    bool in_std_or_global(CXCursor fn) const { return in_std_namespace(fn) || at_global_scope(fn); }

    void check_call(CXCursor call, CXCursor parent) {
        CXCursor fn = clang_getCursorReferenced(call);
        if (is_null(fn)) return;
        CXCursorKind k = clang_getCursorKind(fn);
        if (k == CXCursor_Constructor) {
            CXCursorKind pk = clang_getCursorKind(parent);
            // A declaration's own construction was judged by its type already.
            if (pk == CXCursor_VarDecl || pk == CXCursor_FieldDecl || pk == CXCursor_ParmDecl) return;
            TypeClass tc = classify(clang_getCursorType(clang_getCursorSemanticParent(fn)));
            if (!tc.rule.empty() && tc.rule != "non-pod") {
                report(at_qualified(call), tc.rule, "construction of " + tc.what + ": " + why(tc.rule));
            }
            return;
        }
        if (k == CXCursor_Destructor) return;
        if (k != CXCursor_FunctionDecl && k != CXCursor_CXXMethod && k != CXCursor_FunctionTemplate &&
            k != CXCursor_ConversionFunction) {
            return;
        }
        std::string usr = take(clang_getCursorUSR(fn));
        if (in_.marked_usrs.count(usr) != 0) {
            if (edges_seen_.insert({caller_, usr}).second) {
                graph_[caller_].push_back(Edge{usr, at_qualified(call)});
                names_[usr] = qualified_name(fn);
            }
            return;
        }
        CXCursor owner = clang_getCursorSemanticParent(fn);
        if (is_lambda_class(owner)) return;  // reported at the lambda itself
        if (is_record(clang_getCursorKind(owner)) &&
            in_.marked_usrs.count(take(clang_getCursorUSR(clang_getCanonicalCursor(owner)))) != 0) {
            return;  // a member of a marked struct is part of that struct
        }
        if (is_allowed_math(fn)) return;
        std::string name = spelling(fn);
        if (kHeapFunctions.count(name) != 0 && in_std_or_global(fn)) {
            report(at_qualified(call), "heap-allocation", "call to '" + name + "': device code has no heap");
            return;
        }
        if (kIoFunctions.count(name) != 0 && in_std_or_global(fn)) {
            report(at_qualified(call), "io", "call to '" + name + "': " + why("io"));
            return;
        }
        if (kTranscendentals.count(name) != 0 && in_std_or_global(fn)) {
            report(at_qualified(call), "transcendental", transcendental_advice(name));
            return;
        }
        // Members of, and operators on, a container, string or stream: the
        // object's own use is reported where it is declared or named.
        if (is_record(clang_getCursorKind(owner)) && !classify(clang_getCursorType(owner)).rule.empty()) return;
        if (clang_Cursor_getNumArguments(fn) > 0) {
            TypeClass first = classify(clang_getCursorType(clang_Cursor_getArgument(fn, 0)));
            if (!first.rule.empty() && first.rule != "non-pod") return;
        }
        report(at_qualified(call), "unmarked-call",
               "call to unmarked function '" + qualified_name(fn) +
                   "': only BT_KERNEL functions and the allowed math run on the device");
    }

    // ---- recursion -------------------------------------------------------

    // Note [Recursion cycles]
    // A depth-first walk of the marked call graph, from the functions in
    // translation-unit order and along calls in first-call order, reports
    // each back edge once: at the call that closes the cycle, naming the
    // functions on the cycle from its first to the closing call.
    void check_recursion() {
        std::unordered_map<std::string, int> state;  // 0 unseen, 1 on the stack, 2 done
        std::vector<std::string> stack;
        std::function<void(const std::string&)> dfs = [&](const std::string& fn) {
            state[fn] = 1;
            stack.push_back(fn);
            for (const Edge& e : graph_[fn]) {
                int s = state[e.callee];
                if (s == 0) {
                    dfs(e.callee);
                } else if (s == 1) {
                    auto from = std::find(stack.begin(), stack.end(), e.callee);
                    std::string cycle;
                    for (auto it = from; it != stack.end(); ++it) cycle += names_[*it] + " -> ";
                    cycle += names_[e.callee];
                    report(e.at, "recursion",
                           "recursive call cycle " + cycle + ": device stacks are small and fixed, and the "
                           "generated code has no recursion");
                }
            }
            stack.pop_back();
            state[fn] = 2;
        };
        for (const std::string& fn : order_) {
            if (state[fn] == 0) dfs(fn);
        }
    }

    struct Edge {
        std::string callee;
        SourceLocation at;
    };

    const SubsetInput& in_;
    std::vector<Violation> out_;
    PodOracle pods_;
    std::string caller_;
    std::vector<std::string> order_;
    std::unordered_map<std::string, std::string> names_;
    std::unordered_map<std::string, std::vector<Edge>> graph_;
    std::set<std::pair<std::string, std::string>> edges_seen_;
};

}  // namespace

bool is_allowed_math(CXCursor fn) {
    std::string name = spelling(fn);
    CXCursor owner = clang_getCursorSemanticParent(fn);
    if ((name == "quiet_NaN" || name == "infinity") && is_record(clang_getCursorKind(owner))) {
        return record_name(owner) == "numeric_limits" && in_std_namespace(owner) &&
               type_spelling(clang_getCanonicalType(clang_getCursorType(owner))) == "std::numeric_limits<double>";
    }
    if (!in_std_namespace(fn) && !at_global_scope(fn)) return false;
    if (kAllowedMath.count(name) != 0) return true;
    if (name == "abs") {
        CXType t = clang_getCursorType(fn);
        return clang_getNumArgTypes(t) == 1 && clang_getCanonicalType(clang_getArgType(t, 0)).kind == CXType_Double;
    }
    return false;
}

std::vector<Violation> check_device_subset(const SubsetInput& input) { return Checker(input).run(); }

}  // namespace btforge::gen
