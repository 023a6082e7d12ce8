"""FileWriter: write rows into MindRecord shard files (and their SQLite index) that MindSpore reads."""
from __future__ import annotations

import numbers
import os
import sqlite3

import numpy as np

from . import format as fmt
from .msgpack import pack_map

_TYPE_MAP = {"int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL", "string": "TEXT"}
_INT_RANGE = {"int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1)}


class _Shard:
    """The pages of one shard file being written, laid out as MindSpore's writer lays them out (so a
    single-shard file is byte-for-byte what MindSpore writes for the same calls)."""

    def __init__(self, shard_id: int, path: str, header_size: int, page_size: int):
        self.shard_id, self.path = shard_id, path
        self.tmp = path + ".sprout-tmp"
        self.header_size, self.page_size = header_size, page_size
        self.file = open(self.tmp, "w+b")  # noqa: SIM115 - closed by commit/abort
        self.pages: list[dict] = []
        self.last_blob = self.last_raw = None
        self.blob_len: list[int] = []   # per row: bytes of its blob entry, raw entry, and its index values
        self.raw_len: list[int] = []
        self.values: list[tuple] = []

    def _at(self, page: dict, offset: int) -> int:
        return self.header_size + page["page_id"] * self.page_size + offset

    def _write(self, page: dict, offset: int, data: bytes) -> None:
        self.file.seek(self._at(page, offset))
        self.file.write(data)

    def _new_page(self, kind: str, type_id: int, start: int, end: int, groups, size: int) -> dict:
        page = fmt.page_record(len(self.pages), self.shard_id, kind, type_id, start, end, groups, size)
        self.pages.append(page)
        return page

    def write(self, rows: list, first_number: int) -> None:
        """Write one write_raw_data call's share of rows: (blob, raw, index values) each."""
        blobs = [len(b).to_bytes(8, "little") + b for b, _, _ in rows]
        raws = [len(r).to_bytes(8, "little") + r for _, r, _ in rows]
        for k, (b, r) in enumerate(zip(blobs, raws)):
            if len(b) > self.page_size or len(r) > self.page_size:
                raise ValueError(f"FileWriter: row {first_number + k} needs {max(len(b), len(r))} bytes, more than "
                                 f"a page ({self.page_size} bytes); call set_page_size with a larger size")
        groups = self._cut(blobs, raws)
        first, rest = groups[0], groups[1:]
        if first:  # rows that still fit the last blob page join its row group
            self._write(self.last_blob, self.last_blob["page_size"], b"".join(blobs[i] for i in first))
            self.last_blob["page_size"] += sum(len(blobs[i]) for i in first)
            self.last_blob["end_row_id"] += len(first)
        for group in rest:
            start = self.last_blob["end_row_id"] if self.last_blob else 0
            type_id = self.last_blob["page_type_id"] + 1 if self.last_blob else 0
            page = self._new_page("BLOB_DATA", type_id, start, start + len(group), [(0, 0)],
                                  sum(len(blobs[i]) for i in group))
            self._write(page, 0, b"".join(blobs[i] for i in group))
            self.last_blob = page
        if first and self.last_raw["page_size"] + sum(len(raws[i]) for i in first) > self.page_size:
            self._shift_last_group()
        for n, group in enumerate(groups):
            if group:
                self._append_raw(b"".join(raws[i] for i in group), new_group=n > 0)
        self.blob_len += [len(b) for b in blobs]
        self.raw_len += [len(r) for r in raws]
        self.values += [v for _, _, v in rows]

    def _cut(self, blobs, raws) -> list:
        """Split rows into row groups: the first continues the last blob page (may be empty), every other
        starts a new blob page; a group ends when its blob page or its raw data would pass a page."""
        n_blob = self.last_blob["page_size"] if self.last_blob else 0
        n_raw = self.last_raw["page_size"] - self.last_raw["row_group_ids"][-1]["offset"] if self.last_raw else 0
        groups, current = [], []
        for i, (b, r) in enumerate(zip(blobs, raws)):
            if n_blob == 0 or n_blob + len(b) > self.page_size or n_raw + len(r) > self.page_size:
                groups.append(current)
                current, n_blob, n_raw = [i], len(b), len(r)
            else:
                current.append(i)
                n_blob += len(b)
                n_raw += len(r)
        return groups + [current]

    def _shift_last_group(self) -> None:
        """Move the last row group's scalar data to a new raw page so that it can grow."""
        old = self.last_raw
        moved = old["row_group_ids"].pop()
        self.file.seek(self._at(old, moved["offset"]))
        data = self.file.read(old["page_size"] - moved["offset"])
        old["page_size"] = moved["offset"]
        self.last_raw = self._new_page("RAW_DATA", old["page_id"] + 1, 0, 0, [(moved["id"], 0)], len(data))
        self._write(self.last_raw, 0, data)

    def _append_raw(self, data: bytes, new_group: bool) -> None:
        if self.last_raw is None or self.last_raw["page_size"] + len(data) > self.page_size:
            type_id = self.last_raw["page_id"] + 1 if self.last_raw else 0  # MindSpore numbers raw pages so
            last_group = self.last_raw["row_group_ids"][-1]["id"] if self.last_raw and \
                self.last_raw["row_group_ids"] else -1
            self.last_raw = self._new_page("RAW_DATA", type_id, 0, 0, [], 0)
            self.last_raw["_last_group"] = last_group
        page = self.last_raw
        if new_group:
            last = page["row_group_ids"][-1]["id"] if page["row_group_ids"] else page.get("_last_group", -1)
            page["row_group_ids"].append({"id": last + 1, "offset": page["page_size"]})
        self._write(page, page["page_size"], data)
        page["page_size"] += len(data)

    def index(self) -> list:
        """The INDEXES rows: every row's place, found the way MindSpore's index generator walks the pages."""
        blob_pages = {p["page_type_id"]: p for p in self.pages if p["page_type"] == "BLOB_DATA"}
        out = []
        for raw in (p for p in self.pages if p["page_type"] == "RAW_DATA"):
            for group in raw["row_group_ids"]:
                blob = blob_pages[group["id"]]
                raw_off, blob_off = group["offset"], 0
                for row in range(blob["start_row_id"], blob["end_row_id"]):
                    out.append((row, raw["page_id"], raw_off, raw_off + self.raw_len[row], group["id"],
                                blob["page_id"], blob_off, blob_off + self.blob_len[row]) + self.values[row])
                    raw_off += self.raw_len[row]
                    blob_off += self.blob_len[row]
        return out

    def public_pages(self) -> list:
        return [{k: v for k, v in p.items() if not k.startswith("_")} for p in self.pages]


class FileWriter:
    """Write rows into ``shard_num`` MindRecord files (``file_name`` itself, or ``file_name0``,
    ``file_name1``, ... when sharded) with MindSpore's layout, so MindSpore reads them and sprout reads
    MindSpore's. Define the fields with ``add_schema``, optionally pick index fields with ``add_index``,
    then ``write_raw_data`` lists of row dicts and ``commit``. Files appear atomically at commit."""

    def __init__(self, file_name, shard_num=1, overwrite=False):
        if not isinstance(file_name, (str, os.PathLike)) or not os.fspath(file_name):
            raise ValueError(f"FileWriter: file_name must be a path, got {file_name!r}")
        if isinstance(shard_num, bool) or not isinstance(shard_num, int):
            raise ValueError(f"FileWriter: shard_num must be an int, got {shard_num!r}")
        if not 1 <= shard_num <= fmt.MAX_SHARDS:
            raise ValueError(f"FileWriter: shard_num must be in [1, {fmt.MAX_SHARDS}], got {shard_num}")
        if not isinstance(overwrite, bool):
            raise ValueError(f"FileWriter: overwrite must be a bool, got {overwrite!r}")
        file_name = os.fspath(file_name)
        digits = len(str(shard_num - 1))
        self._paths = [file_name] if shard_num == 1 else [f"{file_name}{i:0{digits}d}" for i in range(shard_num)]
        self._overwrite = overwrite
        self._schema = None
        self._desc = ""
        self._index_fields = None
        self._header_size, self._page_size = fmt.DEFAULT_HEADER_SIZE, fmt.DEFAULT_PAGE_SIZE
        self._shards = None
        self._compression = 0
        self._next_shard = 0
        self._written = 0
        self._committed = False
        self._append_from = None

    # -- definition -------------------------------------------------------------------------------
    def add_schema(self, content, desc=None):
        """Define the fields: {name: {"type": T}} for scalars (int32, int64, float32, float64, string, bytes)
        or {name: {"type": T, "shape": [...]}} for NumPy arrays (int32, int64, float32, float64; -1 for a
        free dimension). Returns the schema id (0)."""
        if self._schema is not None:
            raise RuntimeError("FileWriter: a schema has already been added (MindRecord files have one schema)")
        self._schema = fmt.check_schema("FileWriter.add_schema", content)
        if desc is not None and not isinstance(desc, str):
            raise ValueError(f"FileWriter.add_schema: desc must be a str, got {desc!r}")
        self._desc = desc or ""
        return 0

    def add_index(self, index_fields):
        """Fields MindSpore indexes for fast lookups (scalar fields; default: every scalar field)."""
        if not isinstance(index_fields, list) or not index_fields:
            raise TypeError(f"FileWriter.add_index: index_fields must be a non-empty list of str, got {index_fields!r}")
        schema = self._need_schema("add_index")
        for name in index_fields:
            if not isinstance(name, str):
                raise TypeError(f"FileWriter.add_index: index field names must be str, got {name!r}")
            if name not in schema:
                raise ValueError(f"FileWriter.add_index: {name!r} is not a field of the schema {sorted(schema)}")
            if name in fmt.blob_fields(schema):
                raise ValueError(f"FileWriter.add_index: {name!r} is not a primitive field (bytes or array) and "
                                 "cannot be indexed")
        if len(set(index_fields)) != len(index_fields):
            raise ValueError(f"FileWriter.add_index: duplicate index fields {index_fields}")
        self._index_fields = list(index_fields)

    def set_header_size(self, header_size):
        """Bytes reserved for each shard's header, in [16 KB, 128 MB] and a multiple of 4."""
        self._header_size = self._check_size("set_header_size", header_size, fmt.MIN_HEADER_SIZE, fmt.MAX_HEADER_SIZE)

    def set_page_size(self, page_size):
        """Bytes of each data page, in [32 KB, 256 MB] and a multiple of 4; one row must fit in a page."""
        self._page_size = self._check_size("set_page_size", page_size, fmt.MIN_PAGE_SIZE, fmt.MAX_PAGE_SIZE)

    def _check_size(self, op, value, low, high):
        if self._shards is not None:
            raise RuntimeError(f"FileWriter.{op}: sizes must be set before the first write_raw_data")
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high or value % 4:
            raise ValueError(f"FileWriter.{op}: the size must be a multiple of 4 in [{low}, {high}], got {value!r}")
        return value

    def _need_schema(self, op):
        if self._schema is None:
            raise RuntimeError(f"FileWriter.{op}: add a schema first (add_schema)")
        return self._schema

    # -- writing ----------------------------------------------------------------------------------
    def _open(self):
        schema = self._need_schema("write_raw_data")
        if self._index_fields is None:
            self._index_fields = [n for n, s in schema.items() if s["type"] != "bytes" and "shape" not in s]
        for path in self._paths:
            if not self._overwrite and self._append_from is None and (
                    os.path.exists(path) or os.path.exists(path + ".db")):
                raise RuntimeError(f"FileWriter: {path!r} (or its .db) already exists; pass overwrite=True to "
                                   "replace it")
            folder = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(folder):
                raise ValueError(f"FileWriter: the folder {folder!r} of {path!r} does not exist")
        self._blob_fields = fmt.blob_fields(schema)
        self._compress = fmt.compresses(schema)
        self._shards = [_Shard(i, p, self._header_size, self._page_size) for i, p in enumerate(self._paths)]
        if self._append_from is not None:
            self._append_from(self._shards[0])

    def write_raw_data(self, raw_data, parallel_writer=False):
        """Check ``raw_data`` (a list of row dicts) against the schema and write it, spread evenly over the
        shards. A row that does not match raises ValueError/TypeError naming the row and field (MindSpore
        drops such rows with a warning)."""
        if not isinstance(parallel_writer, bool):
            raise TypeError("FileWriter.write_raw_data: parallel_writer must be a bool")
        if self._committed and self._append_from is None:
            raise RuntimeError("FileWriter.write_raw_data: the files are committed; use FileWriter.open_for_append "
                               "to add rows")
        if not isinstance(raw_data, list):
            raise TypeError("FileWriter.write_raw_data: raw_data must be a list of dicts, got "
                            f"{type(raw_data).__name__}")
        if not raw_data:
            raise RuntimeError("FileWriter.write_raw_data: there is no data to write (an empty list)")
        if self._shards is None:
            self._open()
        encoded = [self._encode(row, self._written + i) for i, row in enumerate(raw_data)]
        n, k = len(encoded), len(self._shards)
        sizes = [n // k + (1 if (i - self._next_shard) % k < n % k else 0) for i in range(k)]
        self._next_shard = (self._next_shard + n % k) % k  # rotate the shards that get one row more
        pos = 0
        for shard, size in zip(self._shards, sizes):
            if size:
                shard.write(encoded[pos:pos + size], self._written + pos)
            pos += size
        self._written += n

    def _encode(self, row, number):
        if not isinstance(row, dict):
            raise TypeError(f"FileWriter.write_raw_data: row {number} must be a dict, got {type(row).__name__}")
        schema, scalars = self._schema, {}
        for name, spec in schema.items():
            if name not in row:
                raise ValueError(f"FileWriter.write_raw_data: row {number} has no field {name!r}")
            value = row[name]
            if spec["type"] == "bytes":
                if not isinstance(value, (bytes, bytearray)):
                    raise TypeError(f"FileWriter.write_raw_data: row {number} field {name!r} must be bytes, got "
                                    f"{type(value).__name__}")
            elif "shape" in spec:
                if not isinstance(value, np.ndarray) or value.dtype != np.dtype(spec["type"]):
                    got = value.dtype if isinstance(value, np.ndarray) else type(value).__name__
                    raise TypeError(f"FileWriter.write_raw_data: row {number} field {name!r} must be a NumPy "
                                    f"{spec['type']} array, got {got}")
                try:
                    value.reshape(spec["shape"])
                except ValueError:
                    raise ValueError(f"FileWriter.write_raw_data: row {number} field {name!r} has shape {value.shape}, "
                                     f"which does not fit the schema shape {spec['shape']}") from None
            else:
                scalars[name] = _scalar(name, spec["type"], value, number)
        blob = fmt.encode_blob(schema, self._blob_fields, row, self._compress) if self._blob_fields else fmt.DUMMY_BLOB
        if self._compress:
            self._compression += len(fmt.encode_blob(schema, self._blob_fields, row, False)) - len(blob)
        raw = pack_map(scalars if scalars else fmt.DUMMY_RAW)
        return blob, raw, tuple(x for name in self._index_fields for x in (0, scalars[name]))

    def commit(self):
        """Flush everything, write the headers and the index files, and move the files into place."""
        if self._committed and self._append_from is None:
            raise RuntimeError("FileWriter.commit: the files are already committed")
        if self._shards is None:
            self._open()
        names = [os.path.basename(p) for p in self._paths]
        try:
            for shard in self._shards:
                head = fmt.header_json(shard.shard_id, names, self._schema, self._desc, self._index_fields,
                                       shard.public_pages(), self._header_size, self._page_size,
                                       max(self._compression, 0))
                if len(head) + 8 > self._header_size:
                    raise RuntimeError(f"FileWriter.commit: the header of {shard.path!r} needs {len(head) + 8} bytes, "
                                       f"more than header_size={self._header_size}; call set_header_size with a "
                                       "larger size (or a larger set_page_size for fewer pages)")
                shard.file.seek(0)
                shard.file.write(len(head).to_bytes(8, "little") + head)
                shard.file.close()
                self._write_index(shard)
            for shard in self._shards:
                os.replace(shard.tmp, shard.path)
                os.replace(shard.tmp + ".db", shard.path + ".db")
        except BaseException:
            self._abort()
            raise
        self._committed = True
        return 0

    def _abort(self):
        for shard in self._shards or ():
            shard.file.close()
            for leftover in (shard.tmp, shard.tmp + ".db"):
                if os.path.exists(leftover):
                    os.remove(leftover)

    def _write_index(self, shard):
        path = shard.tmp + ".db"
        if os.path.exists(path):
            os.remove(path)
        cols = "".join(f",INC_{i} INT, {name}_0 {_TYPE_MAP[self._schema[name]['type']]}"
                       for i, name in enumerate(self._index_fields))
        keys = "".join(f",INC_{i}" for i in range(len(self._index_fields)))
        db = sqlite3.connect(path)
        try:
            db.execute("CREATE TABLE INDEXES(  ROW_ID               INT  NOT NULL, PAGE_ID_RAW          INT  NOT NULL"
                       ", PAGE_OFFSET_RAW      INT  NOT NULL, PAGE_OFFSET_RAW_END  INT  NOT NULL"
                       ", ROW_GROUP_ID         INT  NOT NULL, PAGE_ID_BLOB         INT  NOT NULL"
                       f", PAGE_OFFSET_BLOB     INT  NOT NULL, PAGE_OFFSET_BLOB_END INT  NOT NULL{cols}, "
                       f"PRIMARY KEY(ROW_ID{keys}));")
            db.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL);")
            db.execute("INSERT INTO SHARD_NAME (NAME) VALUES (?)", (os.path.basename(shard.path),))
            width = 8 + 2 * len(self._index_fields)
            db.executemany(f"INSERT INTO INDEXES VALUES ({','.join('?' * width)})", shard.index())
            db.commit()
        finally:
            db.close()

    @classmethod
    def open_for_append(cls, file_name):
        """A writer that adds rows to the committed MindRecord file ``file_name`` (one shard)."""
        from .reader import ShardSet
        shards = ShardSet("FileWriter.open_for_append", file_name, load_dataset=False)
        if len(shards.files) != 1 or len(shards.addresses) != 1:
            raise ValueError("FileWriter.open_for_append: appending works on a single-shard MindRecord file")
        first = shards.files[0]
        writer = cls(first.path, 1, overwrite=True)
        writer._schema, writer._desc = first.schema, first.desc
        writer._index_fields = list(first.index_fields)
        writer._header_size, writer._page_size = first.header_size, first.page_size
        writer._compression = first.compression_size

        def restore(shard):
            with open(first.path, "rb") as src:
                src.seek(first.header_size)
                shard.file.seek(first.header_size)
                while chunk := src.read(1 << 20):
                    shard.file.write(chunk)
            shard.pages = [dict(p, row_group_ids=[dict(g) for g in p["row_group_ids"]]) for p in first.pages]
            for kind, attr in (("BLOB_DATA", "last_blob"), ("RAW_DATA", "last_raw")):
                mine = [p for p in shard.pages if p["page_type"] == kind]
                setattr(shard, attr, mine[-1] if mine else None)
            rows = first.index_rows()
            shard.raw_len = [r[3] - r[2] for r in rows]
            shard.blob_len = [r[7] - r[6] for r in rows]
            shard.values = [tuple(r[8:]) for r in rows]
        writer._append_from = restore
        return writer


def _scalar(name, kind, value, number):
    """A raw field value as the Python scalar MindSpore stores (ints range-checked, numpy scalars unwrapped)."""
    where = f"FileWriter.write_raw_data: row {number} field {name!r}"
    if kind == "string":
        if not isinstance(value, str):
            raise TypeError(f"{where} must be a str, got {type(value).__name__}")
        return value
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{where} must be a number of type {kind}, got bool")
    if kind in _INT_RANGE:
        if not isinstance(value, numbers.Integral):
            raise TypeError(f"{where} must be an int ({kind}), got {type(value).__name__} {value!r}")
        lo, hi = _INT_RANGE[kind]
        if not lo <= int(value) <= hi:
            raise ValueError(f"{where} = {value} is out of the {kind} range")
        return int(value)
    if not isinstance(value, (float, np.floating)):
        raise TypeError(f"{where} must be a float ({kind}), got {type(value).__name__} {value!r}")
    return float(value)
