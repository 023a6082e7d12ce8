"""Reading MindRecord shard files: headers, the SQLite row index, and rows; FileReader."""
from __future__ import annotations

import json
import os
import sqlite3

import numpy as np

from . import format as fmt
from .msgpack import MsgpackError, unpack


def _pread(fd: int, size: int, offset: int) -> bytes:
    if hasattr(os, "pread"):
        return os.pread(fd, size, offset)
    os.lseek(fd, offset, os.SEEK_SET)  # pragma: no cover - platforms without pread
    return os.read(fd, size)


class ShardFile:
    """One shard file: its header, its row locations (from ``<file>.db``) and row decoding."""

    def __init__(self, op: str, path: str):
        self.op, self.path = op, os.fspath(path)
        if not os.path.isfile(self.path):
            raise ValueError(f"{op}: MindRecord file {self.path!r} does not exist")
        self.fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        size = os.fstat(self.fd).st_size
        head = _pread(self.fd, 8, 0)
        n = int.from_bytes(head, "little") if len(head) == 8 else -1
        if n <= 0 or 8 + n > size:
            raise RuntimeError(f"{op}: {self.path!r} is not a MindRecord file (no header; {size} bytes)")
        try:
            header = json.loads(_pread(self.fd, n, 8))
            self.schema = header["schema"][0]["schema"]
            self.desc = header["schema"][0].get("desc", "")
            self.pages = header["page"] or []
            self.header_size, self.page_size = int(header["header_size"]), int(header["page_size"])
            self.addresses, self.shard_id = list(header["shard_addresses"]), int(header["shard_id"])
            self.version = str(header.get("version", "2.0"))
            self.compression_size = int(header.get("compression_size") or 0)
            self.index_fields = [f["index_field"] for f in header.get("index_fields") or []]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise RuntimeError(f"{op}: the header of {self.path!r} is damaged: {type(exc).__name__}: {exc}") from None
        self.blob_fields = fmt.blob_fields(self.schema)
        self.compress = self.version >= fmt.VERSION and fmt.compresses(self.schema)
        self.num_rows = sum(p["end_row_id"] - p["start_row_id"] for p in self.pages if p["page_type"] == "BLOB_DATA")
        for p in self.pages:
            end = self.header_size + p["page_id"] * self.page_size + p["page_size"]
            if end > size:
                rows = f"rows {p['start_row_id']}..{p['end_row_id'] - 1}" if p["page_type"] == "BLOB_DATA" \
                    else "row groups " + ", ".join(str(g["id"]) for g in p["row_group_ids"])
                raise RuntimeError(f"{op}: MindRecord file {self.path!r} is truncated ({size} bytes): page "
                                   f"{p['page_id']} ({p['page_type']}, {rows}) ends at byte {end}")
        self._locations = None

    def meta(self) -> tuple:
        return (self.header_size, self.page_size, self.version, json.dumps(self.schema, sort_keys=True),
                tuple(self.index_fields))

    def _db(self):
        db_path = self.path + ".db"
        if not os.path.isfile(db_path):
            raise RuntimeError(f"{self.op}: the index file {db_path!r} of {self.path!r} is missing (MindRecord files "
                               "come with a .db index)")
        db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        try:
            name = db.execute("SELECT NAME FROM SHARD_NAME").fetchone()
        except sqlite3.DatabaseError as exc:
            db.close()
            raise RuntimeError(f"{self.op}: the index file {db_path!r} is damaged: {exc}") from None
        if not name or name[0] != os.path.basename(self.path):
            db.close()
            raise RuntimeError(f"{self.op}: the index file {db_path!r} belongs to {name and name[0]!r}, not "
                               f"{os.path.basename(self.path)!r} (MindRecord files cannot be renamed)")
        return db

    def index_rows(self) -> list:
        db = self._db()
        try:
            return db.execute("SELECT * FROM INDEXES ORDER BY ROW_ID").fetchall()
        finally:
            db.close()

    def locations(self) -> np.ndarray:
        """(rows, 7) int64: row id, raw page, raw start, raw end, blob page, blob start, blob end."""
        if self._locations is None:
            db = self._db()
            try:
                rows = db.execute("SELECT ROW_ID, PAGE_ID_RAW, PAGE_OFFSET_RAW, PAGE_OFFSET_RAW_END, PAGE_ID_BLOB, "
                                  "PAGE_OFFSET_BLOB, PAGE_OFFSET_BLOB_END FROM INDEXES ORDER BY ROW_ID").fetchall()
            finally:
                db.close()
            self._locations = np.array(rows, np.int64).reshape(-1, 7)
            if len(self._locations) != self.num_rows:
                raise RuntimeError(f"{self.op}: the index of {self.path!r} lists {len(self._locations)} rows but the "
                                   f"file's pages hold {self.num_rows}")
        return self._locations

    def _slice(self, page, start, end, row, what) -> bytes:
        data = _pread(self.fd, end - start - 8, self.header_size + page * self.page_size + start + 8)
        if len(data) != end - start - 8:
            raise RuntimeError(f"{self.op}: MindRecord file {self.path!r} row {row}: its {what} data (page {page}, "
                               f"bytes {start}..{end}) lies past the end of the file")
        return data

    def read(self, k: int, columns=None) -> tuple[dict, dict]:
        """Row ``k`` (position in this file) as (scalar fields, binary fields)."""
        row_id, raw_page, raw_start, raw_end, blob_page, blob_start, blob_end = self.locations()[k].tolist()
        try:
            scalars = unpack(self._slice(raw_page, raw_start, raw_end, row_id, "scalar"))
            blobs = {}
            if self.blob_fields and (columns is None or any(c in self.blob_fields for c in columns)):
                blobs = fmt.decode_blob(self.schema, self.blob_fields,
                                        self._slice(blob_page, blob_start, blob_end, row_id, "binary"),
                                        self.compress, columns)
        except (MsgpackError, ValueError, UnicodeDecodeError) as exc:
            raise RuntimeError(f"{self.op}: MindRecord file {self.path!r} row {row_id} is damaged: {exc}") from None
        if not isinstance(scalars, dict):
            raise RuntimeError(f"{self.op}: MindRecord file {self.path!r} row {row_id} is damaged: its scalar data is "
                               "not a map")
        return scalars, blobs

    def close(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


class ShardSet:
    """All shard files of a MindRecord dataset: one path (with ``load_dataset``, every shard its header names)
    or a list of paths (exactly those shards)."""

    def __init__(self, op: str, file_name, load_dataset: bool = True):
        if isinstance(file_name, (str, os.PathLike)):
            first = ShardFile(op, file_name)
            paths = [os.fspath(file_name)]
            if load_dataset:
                folder = os.path.dirname(os.fspath(file_name))
                paths = [os.path.join(folder, a) for a in first.addresses]
                for p in paths:
                    if not os.path.isfile(p):
                        raise ValueError(f"{op}: shard {p!r} of {os.fspath(file_name)!r} is missing (pass a list of "
                                         "files to read only some shards)")
            files = [first if os.path.abspath(p) == os.path.abspath(first.path) else ShardFile(op, p) for p in paths]
        elif isinstance(file_name, (list, tuple)) and file_name and all(
                isinstance(f, (str, os.PathLike)) for f in file_name):
            if len(set(map(os.fspath, file_name))) != len(file_name):
                raise ValueError(f"{op}: the file list has duplicates: {list(map(os.fspath, file_name))}")
            files = [ShardFile(op, f) for f in file_name]
        else:
            raise TypeError(f"{op}: expects a MindRecord file path or a non-empty list of paths, got {file_name!r}")
        for f in files[1:]:
            if f.meta() != files[0].meta():
                raise RuntimeError(f"{op}: {f.path!r} and {files[0].path!r} have different schemas, index fields or "
                                   "sizes; they are not shards of one dataset")
        self.files, self.addresses = files, files[0].addresses
        self.schema = files[0].schema
        self.offsets = np.cumsum([0] + [f.num_rows for f in files])

    @property
    def num_rows(self) -> int:
        return int(self.offsets[-1])

    def locate(self, i: int) -> tuple[ShardFile, int]:
        f = int(np.searchsorted(self.offsets, i, side="right") - 1)
        return self.files[f], i - int(self.offsets[f])

    def close(self):
        for f in self.files:
            f.close()


class FileReader:
    """Iterate the rows of MindRecord files as dicts (scalar fields as Python values, ``bytes`` fields as bytes,
    array fields as NumPy arrays). ``file_name``: one file (all shards of its dataset are read) or a list."""

    def __init__(self, file_name, num_consumer=4, columns=None, operator=None):
        if isinstance(num_consumer, bool) or not isinstance(num_consumer, int) or num_consumer < 1:
            raise ValueError(f"FileReader: num_consumer must be a positive int, got {num_consumer!r}")
        if operator is not None:
            raise NotImplementedError("FileReader: operator is not supported (MindSpore is deprecating it)")
        self._shards = ShardSet("FileReader", file_name)
        if columns is not None:
            if not isinstance(columns, list) or not columns:
                raise TypeError(f"FileReader: columns must be a non-empty list of field names, got {columns!r}")
            unknown = [c for c in columns if c not in self._shards.schema]
            if unknown:
                raise ValueError(f"FileReader: columns {unknown} are not in the schema {sorted(self._shards.schema)}")
        self._columns = columns

    def get_next(self):
        """Yield every row as a dict, shard by shard in file order."""
        for f in self._shards.files:
            for k in range(f.num_rows):
                scalars, blobs = f.read(k, self._columns)
                row = {n: v for n, v in scalars.items() if n in f.schema and (not self._columns or n in self._columns)}
                row.update(blobs)
                yield row

    def len(self) -> int:
        return self._shards.num_rows

    def schema(self) -> dict:
        return dict(self._shards.schema)

    def close(self) -> None:
        self._shards.close()
