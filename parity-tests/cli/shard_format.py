"""A shard file's parts (Note [Shard files]), for tests that edit shards.

Versions 2 to 4 are "BTFSHARD", the version (uint32) and three sections
(header JSON, rows, period statistics), each its length (uint64), its bytes
and their SHA-256 (version 4's identity names --cpcv, version 3's does
not); version 5 adds a fourth, the outcome key of each combination (16
bytes, Note [Distinct outcomes]); version 6 a fifth, each combination's
equity marks (doubles, Note [Equity marks]; none without --spa); version 7
rows hold ambiguous_bars (row_bytes 160, Note [Ambiguous bars]), version 8
magnified_bars in the same 160 bytes (Note [Finer bars]); version 3's and 4's period statistics are what validation reads
(the header's period_bytes: 64, Note [What a shard's periods carry]),
version 2's all of them (112). Version 1 (btforge before issue 29) is
"BTFSHARD", the version, the header's length and the header, whose "rows"
and "period_statistics" count the rows and statistics that follow. Both are read and written, so an edit
made by a test shows what the older reader believed as well.
"""

import hashlib
import json
import struct

ROW_SHARPE = 96  # ResultRow: the id (8 bytes), then Metrics up to sharpe (88)


class Shard:
    def __init__(self, data):
        assert data[:8] == b"BTFSHARD", "not a shard"
        (self.version,) = struct.unpack_from("<I", data, 8)
        self.header_text = None  # raw header bytes, written instead of `header`
        self.lengths = {}  # section -> length written instead of the true one
        self.keep_digests = False  # write the digests read, not those of the bytes
        if self.version == 1:
            (size,) = struct.unpack_from("<Q", data, 12)
            self.header = json.loads(data[20:20 + size])
            rows = self.header["rows"] * self.header["row_bytes"]
            self.rows = bytearray(data[20 + size:20 + size + rows])
            self.periods = bytearray(data[20 + size + rows:])
            self.digests = {}
            self.header_raw = data[20:20 + size]
            return
        at = 12
        parts, self.digests = [], {}
        self.outcomes = bytearray()
        self.marks = bytearray()
        for name in self.sections():
            (size,) = struct.unpack_from("<Q", data, at)
            at += 8
            parts.append(bytearray(data[at:at + size]))
            self.digests[name] = data[at + size:at + size + 32]
            at += size + 32
        self.header_raw = bytes(parts[0])
        self.header = json.loads(self.header_raw)
        self.rows, self.periods = parts[1], parts[2]
        if self.version >= 5:
            self.outcomes = parts[3]
        if self.version >= 6:
            self.marks = parts[4]

    def sections(self):
        if self.version >= 6:
            return ("header", "rows", "periods", "outcomes", "marks")
        return ("header", "rows", "periods", "outcomes") if self.version >= 5 else ("header", "rows", "periods")

    @classmethod
    def read(cls, path):
        with open(path, "rb") as f:
            return cls(f.read())

    @property
    def row_bytes(self):
        return self.header["row_bytes"]

    @property
    def period_bytes(self):
        return self.header["period_bytes"]

    def row_count(self):
        return len(self.rows) // self.row_bytes

    def row_id(self, k):
        return struct.unpack_from("<Q", self.rows, k * self.row_bytes)[0]

    def set_row_id(self, k, value):
        struct.pack_into("<Q", self.rows, k * self.row_bytes, value)

    def sharpe(self, k):
        return struct.unpack_from("<d", self.rows, k * self.row_bytes + ROW_SHARPE)[0]

    def set_sharpe(self, k, value):
        struct.pack_into("<d", self.rows, k * self.row_bytes + ROW_SHARPE, value)

    def flip_bit(self, section, offset, bit=0):
        getattr(self, section)[offset] ^= 1 << bit

    def bytes(self):
        if self.version == 1:
            header = self.header
            if self.header_text is None:
                header = dict(header, rows=self.lengths.get("rows", len(self.rows)) // self.row_bytes,
                              period_statistics=self.lengths.get("periods", len(self.periods)) // self.period_bytes)
            text = self.header_text if self.header_text is not None else json.dumps(header).encode()
            return b"BTFSHARD" + struct.pack("<IQ", 1, len(text)) + text + bytes(self.rows) + bytes(self.periods)
        text = self.header_text
        if text is None:  # the bytes read, unless the header was edited
            text = self.header_raw if json.loads(self.header_raw) == self.header else json.dumps(self.header).encode()
        out = b"BTFSHARD" + struct.pack("<I", self.version)
        parts = {"header": text, "rows": self.rows, "periods": self.periods, "outcomes": self.outcomes,
                 "marks": self.marks}
        for name in self.sections():
            part = parts[name]
            digest = self.digests[name] if self.keep_digests else hashlib.sha256(part).digest()
            out += struct.pack("<Q", self.lengths.get(name, len(part))) + bytes(part) + digest
        return out

    def write(self, path):
        with open(path, "wb") as f:
            f.write(self.bytes())
