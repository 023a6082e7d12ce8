"""MindSpore-compatible checkpoints: save_checkpoint, load_checkpoint, load_param_into_net (.ckpt and .safetensors)."""
from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import warnings

import numpy as np

from sprout import dtype as mstype
from sprout.train import _ckpt_proto as proto

__all__ = ["CheckpointLoadError", "load_checkpoint", "load_param_into_net", "save_checkpoint", "export", "load"]

logger = logging.getLogger("sprout.train")

# MindSpore cuts the bytes of a tensor bigger than 512 MiB into several consecutive entries with the same name.
SLICE_BYTES = 512 * 1024 * 1024
_FORMATS = ("ckpt", "safetensors")


class CheckpointLoadError(RuntimeError, ValueError):
    """A checkpoint value does not fit the network parameter it should be loaded into.

    MindSpore raises RuntimeError here; this class is also a ValueError so both spellings catch it."""


# ---------------------------------------------------------------- the core's Tensor / Parameter

def _core_classes():
    """(Tensor, Parameter) of sprout's core; imported lazily so this module loads on its own."""
    from sprout.core.tensor import Parameter, Tensor
    return Tensor, Parameter


def _make_tensor(arr: np.ndarray):
    return _core_classes()[0](arr)


def _make_parameter(arr: np.ndarray, name: str):
    return _core_classes()[1](arr, name=name)  # Parameter copies the (possibly read-only) array


def _scalar_array(value) -> np.ndarray:
    """A Python scalar as MindSpore's Tensor(value) would hold it: bool, int64 or float32."""
    if isinstance(value, (bool, np.bool_)):
        return np.array(value, dtype=np.bool_)
    if isinstance(value, int):
        return np.array(value, dtype=np.int64)
    return np.array(value, dtype=np.float32)


def _to_numpy(value, what: str) -> np.ndarray:
    if hasattr(value, "asnumpy"):
        return np.asarray(value.asnumpy())
    if isinstance(value, (np.ndarray, np.generic)):
        return np.asarray(value)
    if isinstance(value, (bool, int, float)):
        return _scalar_array(value)
    raise TypeError(f"{what}: expected a Tensor, Parameter, NumPy array or number, got {type(value).__name__}")


def _family(dtype: np.dtype) -> str:
    """NumPy's kind letter, with ml_dtypes' bfloat16 (kind "V") counted as a float."""
    return "f" if mstype.is_bfloat16_np(dtype) else dtype.kind


def _type_name(dtype: np.dtype) -> str:
    return proto.NP_TO_TYPE.get((dtype.kind, dtype.itemsize), str(dtype))


# ---------------------------------------------------------------- save

def _check_unsupported_save(async_save, enc_key, kwargs):
    if async_save not in (False, None):
        raise NotImplementedError("sprout does not support async_save; save_checkpoint always writes synchronously "
                                  "(pass async_save=False)")
    if enc_key is not None:
        raise NotImplementedError("sprout does not support encrypted checkpoints (enc_key)")
    if kwargs.get("incremental"):
        raise NotImplementedError("sprout does not support incremental MapParameter checkpoints")
    if kwargs.get("remove_redundancy"):
        raise NotImplementedError("sprout does not support remove_redundancy (it is for parallel training)")
    if kwargs.get("global_step_num") is not None:  # MindSpore passes it to its Ascend checkpoint accelerator only
        raise NotImplementedError("save_checkpoint: global_step_num (for MindSpore's aiturbo checkpoint service) is "
                                  "not supported by sprout")
    unknown = set(kwargs) - {"incremental", "remove_redundancy", "global_step_num"}
    if unknown:  # MindSpore 2.10 drops other keys unread
        raise TypeError(f"save_checkpoint got unexpected keyword arguments {sorted(unknown)}")


def _save_path(ckpt_file_name, fmt: str) -> str:
    if fmt not in _FORMATS:
        raise ValueError(f"For 'save_checkpoint', the format must be 'ckpt' or 'safetensors', but got {fmt!r}")
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise TypeError(f"For 'save_checkpoint', 'ckpt_file_name' must be a str, got {type(ckpt_file_name).__name__}")
    path = os.path.realpath(os.fspath(ckpt_file_name))
    if os.path.isdir(path):
        raise IsADirectoryError(f"For 'save_checkpoint', 'ckpt_file_name' {path} is a directory, not a file name")
    if not path.endswith(fmt):  # MindSpore's rule: the name must end with the format word
        path += "." + fmt
    return path


def _collect_save_obj(save_obj, choice_func) -> dict:
    """name -> value (ndarray or str) for a Cell, a list of {"name", "data"} dicts / Parameters, or a dict."""
    entries = {}

    def add(name, value):
        if not isinstance(name, str):
            raise TypeError(f"For 'save_checkpoint', parameter names must be str, got {type(name).__name__}")
        if choice_func is not None and not choice_func(name):
            return
        entries[name] = value if isinstance(value, str) else _to_numpy(value, f"parameter {name!r}")

    if isinstance(save_obj, dict):
        for name, value in save_obj.items():
            add(name, value)
    elif isinstance(save_obj, (list, tuple)):
        for item in save_obj:
            if isinstance(item, dict):
                if "name" not in item or "data" not in item:
                    raise TypeError("For 'save_checkpoint', a list item dict needs the keys 'name' and 'data', "
                                    f"got {sorted(item)}")
                add(item["name"], item["data"])
            elif hasattr(item, "name") and hasattr(item, "asnumpy"):
                add(item.name, item)
            else:
                raise TypeError("For 'save_checkpoint', a list must hold Parameters or {'name', 'data'} dicts, "
                                f"got {type(item).__name__}")
    elif hasattr(save_obj, "parameters_and_names"):
        for attr_name, param in save_obj.parameters_and_names():
            name = getattr(param, "name", None) or attr_name
            if name not in entries:  # a shared parameter is saved once
                add(name, param)
    else:
        raise TypeError("For 'save_checkpoint', 'save_obj' must be a Cell, list or dict, "
                        f"got {type(save_obj).__name__}")
    return entries


def _append_entries(append_dict) -> dict:
    if not isinstance(append_dict, dict):
        raise TypeError(f"For 'save_checkpoint', 'append_dict' must be a dict, got {type(append_dict).__name__}")
    out = {}
    for key, value in append_dict.items():
        if not isinstance(key, str):
            raise TypeError(f"For 'save_checkpoint', append_dict keys must be str, got {type(key).__name__}")
        if isinstance(value, str):
            out[key] = value
        elif isinstance(value, (bool, int, float)) or hasattr(value, "asnumpy"):
            out[key] = _to_numpy(value, f"append_dict[{key!r}]")
        else:
            raise TypeError(f"For 'save_checkpoint', append_dict values must be int, float, bool, str, Tensor or "
                            f"Parameter, got {type(value).__name__} for {key!r}")
    return out


def _little_endian(arr: np.ndarray, name: str) -> np.ndarray:
    if (arr.dtype.kind, arr.dtype.itemsize) not in proto.NP_TO_TYPE:
        raise TypeError(f"cannot save {name!r}: dtype {arr.dtype} has no checkpoint encoding")
    arr = np.asarray(arr, dtype=arr.dtype.newbyteorder("<"))
    return arr if arr.flags.c_contiguous else arr.copy(order="C")  # (ascontiguousarray would turn 0-d into 1-d)


def _write_ckpt(f, entries: dict, crc_check: bool) -> None:
    crc = 0
    for name, value in entries.items():
        if isinstance(value, str):
            content = value.encode("utf-32-le") or b"\0" * 4  # NumPy stores "" as one NUL code point
            pieces, dims, type_name = [content], [0], proto.STR_TYPE
        else:
            arr = _little_endian(value, name)
            dims, type_name = list(arr.shape), _type_name(arr.dtype)
            raw = arr.reshape(-1).view(np.uint8).data
            pieces = [raw[i:i + SLICE_BYTES] for i in range(0, len(raw), SLICE_BYTES)] or [raw]
        for piece in pieces:
            header = proto.entry_header(name, dims, type_name, len(piece))
            f.write(header)
            f.write(piece)
            if crc_check:
                crc = proto.crc32(piece, proto.crc32(header, crc))
    if crc_check:
        f.write(proto.crc_trailer(crc))


def _safetensors_bytes(entries: dict, crc_check: bool) -> bytes:
    try:
        from safetensors.numpy import save as st_save
    except ImportError as exc:
        raise ImportError("format='safetensors' needs the 'safetensors' package (pip install safetensors)") from exc
    tensors, crc = {}, 0
    for name in sorted(entries):
        value = entries[name]
        if isinstance(value, str):
            raise TypeError(f"For 'save_checkpoint', safetensors cannot store the string entry {name!r}")
        tensors[name] = _little_endian(value, name)
        if crc_check:
            crc = proto.crc32(tensors[name].tobytes(), proto.crc32(name.encode("utf-8"), crc))
    metadata = None
    if tensors:
        metadata = {"format": "ms"}
        if crc_check:
            metadata["crc_num"] = str(crc)
    return st_save(tensors, metadata=metadata)


def _atomic_write(path: str, write_body) -> None:
    """Write through a temp file in the same directory, fsync it, then os.replace it over ``path``."""
    directory = os.path.dirname(path) or "."
    tmp = os.path.join(directory, f".{os.path.basename(path)}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            write_body(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable where the OS allows it
        dir_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False, append_dict=None,
                    enc_key=None, enc_mode="AES-GCM", choice_func=None, crc_check=False, format="ckpt", **kwargs):
    """Save the parameters of ``save_obj`` (a Cell, a list or a dict) to a checkpoint file.

    ``append_dict`` adds extra entries (int -> Int64, float -> Float32, bool, str, Tensor). ``choice_func(name)``
    selects which parameters to save. ``crc_check`` appends MindSpore's CRC32 trailer (ckpt) or metadata
    (safetensors). The file is replaced atomically. ``integrated_save=False`` saves this rank's block of each
    parameter the SPMD pass (``shard``) split (``True``: whole parameters, which every rank holds); encryption and
    asynchronous saving are not supported.
    """
    _check_unsupported_save(async_save, enc_key, kwargs)
    path = _save_path(ckpt_file_name, format)
    entries = _collect_save_obj(save_obj, choice_func)
    if hasattr(save_obj, "parameters_and_names"):
        from ..nn.parallel_optimizer import refuse_optimizer_slices
        from ..parallel.spmd_ckpt import slice_entries

        if integrated_save:  # whole parameters: every rank holds them, except parallel-optimizer state slices
            refuse_optimizer_slices(save_obj, entries)
        else:  # sharded: this rank's blocks only
            slice_entries(save_obj, entries)
    if append_dict:
        entries.update(_append_entries(append_dict))
    if format == "ckpt":
        _atomic_write(path, lambda f: _write_ckpt(f, entries, bool(crc_check)))
    else:
        data = _safetensors_bytes(entries, bool(crc_check))
        _atomic_write(path, lambda f: f.write(data))


# ---------------------------------------------------------------- load

def _check_prefix(prefix, arg: str):
    if prefix is None:
        return None
    if isinstance(prefix, str):
        prefix = (prefix,)
    if not isinstance(prefix, (list, tuple)):
        raise TypeError(f"For 'load_checkpoint', '{arg}' must be a str or a list/tuple of str, "
                        f"got {type(prefix).__name__}")
    if not prefix:
        raise ValueError(f"For 'load_checkpoint', '{arg}' must not be an empty list or tuple")
    for i, p in enumerate(prefix):
        if not isinstance(p, str):
            raise TypeError(f"For 'load_checkpoint', '{arg}'[{i}] must be a str, got {type(p).__name__}")
        if not p:
            raise ValueError(f"For 'load_checkpoint', '{arg}' must not contain ''")
    return tuple(prefix)


def _wanted(name: str, specify_prefix, filter_prefix, choice_func) -> bool:
    if specify_prefix and not name.startswith(specify_prefix):
        return False
    if filter_prefix and name.startswith(filter_prefix):
        return False
    if specify_prefix is None and filter_prefix is None and choice_func is not None:
        return bool(choice_func(name))
    return True


def _load_path(ckpt_file_name, fmt: str) -> str:
    if fmt not in _FORMATS:
        raise ValueError(f"For 'load_checkpoint', the format must be 'ckpt' or 'safetensors', but got {fmt!r}")
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise TypeError(f"For 'load_checkpoint', 'ckpt_file_name' must be a str, got {type(ckpt_file_name).__name__}")
    path = os.fspath(ckpt_file_name)
    if not path.endswith(fmt):
        raise ValueError(f"For 'load_checkpoint', the file name must end with the format {fmt!r}, got {path!r}")
    path = os.path.realpath(path)
    if not os.path.isfile(path):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file {path} does not exist")
    return path


def _corrupt(path: str, why) -> ValueError:
    return ValueError(f"Failed to read the checkpoint file {path}: {why}. The file may be truncated or corrupted.")


def _read_ckpt(path: str, crc_check: bool, wanted) -> dict:
    """Parse and validate the whole .ckpt file: name -> ndarray or str. Nothing is built before this succeeds."""
    with open(path, "rb") as f:
        data = f.read()
    body, crc = proto.split_crc(data)
    if crc_check:
        if crc is None:
            warnings.warn(f"crc_check=True but the checkpoint file {path} carries no CRC", stacklevel=3)
        elif proto.crc32(body) != crc:
            raise _corrupt(path, "the CRC32 check failed")
    try:
        records = proto.parse_records(body)
        if not records:
            raise proto.ProtoError("it holds no checkpoint entries")
        groups = []  # consecutive entries with one name are slices of one tensor
        for tag, dims, type_name, content in records:
            if groups and groups[-1][0] == tag:
                if (groups[-1][1], groups[-1][2]) != (dims, type_name):
                    raise proto.ProtoError(f"the slices of entry {tag!r} disagree on shape or type")
                groups[-1][3].append(content)
            else:
                groups.append((tag, dims, type_name, [content]))
        out = {}
        for tag, dims, type_name, parts in groups:
            if wanted(tag):
                content = parts[0] if len(parts) == 1 else b"".join(parts)
                out[tag] = proto.record_value(tag, dims, type_name, content)
    except proto.ProtoError as exc:
        raise _corrupt(path, exc) from None
    return out


def _st_load_bf16(st_load, data: bytes, header_len: int, header: dict) -> dict:
    """safetensors' NumPy loader has no BF16: such entries are read as U16 (the header rewritten in place, same
    length) and viewed as ml_dtypes' bfloat16."""
    bf16 = [k for k, v in header.items() if isinstance(v, dict) and v.get("dtype") == "BF16"]
    if not bf16:
        return st_load(data)
    text = data[8:8 + header_len].replace(b'"dtype":"BF16"', b'"dtype":"U16" ')
    tensors = st_load(data[:8] + text + data[8 + header_len:])
    for name in bf16:
        tensors[name] = tensors[name].view(mstype.bfloat16.np)
    return tensors


def _read_safetensors(path: str, crc_check: bool, wanted) -> dict:
    try:
        from safetensors import SafetensorError
        from safetensors.numpy import load as st_load
    except ImportError as exc:
        raise ImportError("format='safetensors' needs the 'safetensors' package (pip install safetensors)") from exc
    with open(path, "rb") as f:
        data = f.read()
    try:
        header_len = int.from_bytes(data[:8], "little")
        header = json.loads(data[8:8 + header_len])
        metadata = header.get("__metadata__") or {}
        tensors = _st_load_bf16(st_load, data, header_len, header)
    except (SafetensorError, ValueError, TypeError, AttributeError) as exc:
        raise _corrupt(path, exc) from None
    if crc_check:
        if "crc_num" not in metadata:
            warnings.warn(f"crc_check=True but the safetensors file {path} carries no CRC", stacklevel=3)
        else:
            crc = 0
            for name in sorted(tensors):
                crc = proto.crc32(tensors[name].tobytes(), proto.crc32(name.encode("utf-8"), crc))
            if str(crc) != str(metadata["crc_num"]):
                raise _corrupt(path, "the CRC32 check failed")
    return {name: tensors[name] for name in sorted(tensors) if wanted(name)}


def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None, dec_key=None,
                    dec_mode="AES-GCM", specify_prefix=None, choice_func=None, crc_check=False,
                    remove_redundancy=False, format="ckpt"):
    """Load a checkpoint file into a dict name -> Parameter (string entries stay str).

    ``specify_prefix`` keeps only names starting with one of the prefixes, ``filter_prefix`` drops them;
    ``choice_func(name)`` selects names when neither prefix argument is given. With ``net``, the values are
    also loaded into it by ``load_param_into_net``. The whole file is read and checked before anything is
    built or assigned, so a truncated or corrupted file raises ValueError and leaves ``net`` untouched.
    """
    specify_prefix = _check_prefix(specify_prefix, "specify_prefix")
    filter_prefix = _check_prefix(filter_prefix, "filter_prefix")
    if dec_key is not None:
        raise NotImplementedError("sprout does not support encrypted checkpoints (dec_key)")
    if remove_redundancy:
        raise NotImplementedError("sprout does not support remove_redundancy (it is for parallel training)")
    path = _load_path(ckpt_file_name, format)

    def wanted(name):
        return _wanted(name, specify_prefix, filter_prefix, choice_func)

    reader = _read_ckpt if format == "ckpt" else _read_safetensors
    values = reader(path, bool(crc_check), wanted)
    if not values:
        raise ValueError(f"The parameter dict loaded from {path} is empty after filtering; check whether "
                         "'filter_prefix', 'specify_prefix' or 'choice_func' are set correctly.")
    param_dict = {name: value if isinstance(value, str) else _make_parameter(value, name)
                  for name, value in values.items()}
    if net is not None:
        load_param_into_net(net, param_dict, strict_load)
    return param_dict


# ---------------------------------------------------------------- load_param_into_net

def _fit(param, value, name: str, strict_load: bool) -> np.ndarray:
    """The checkpoint value reshaped/cast to fit ``param``, or CheckpointLoadError."""
    new = _to_numpy(value, f"parameter_dict[{name!r}]")
    cur = _to_numpy(param, f"network parameter {name!r}")
    if new.shape != cur.shape:
        # Like MindSpore: extra trailing 1-dims in the checkpoint, e.g. (12, 2048, 1, 1) -> (12, 2048), are dropped.
        extra = new.shape[cur.ndim:]
        if new.ndim > cur.ndim and new.shape[:cur.ndim] == cur.shape and all(d == 1 for d in extra):
            new = new.reshape(cur.shape)
        else:
            raise CheckpointLoadError(
                f"For 'load_param_into_net', parameter '{name}' has shape {cur.shape} in the network but shape "
                f"{new.shape} in the checkpoint; check that the checkpoint matches the network.")
    if new.dtype != cur.dtype:
        same_family = _family(new.dtype) == _family(cur.dtype) and _family(cur.dtype) in "fi"
        if strict_load or not same_family:
            raise CheckpointLoadError(
                f"For 'load_param_into_net', parameter '{name}' has type {_type_name(cur.dtype)} in the network "
                f"but {_type_name(new.dtype)} in the checkpoint"
                + (" (strict_load=True forbids converting it)." if same_family else "."))
        logger.warning("Converting %s from %s to %s while loading it into the network.",
                       name, _type_name(new.dtype), _type_name(cur.dtype))
        new = new.astype(cur.dtype)
    return new


def _find_prefix(parameter_dict, not_loaded, tried):
    for net_name in not_loaded:
        for key in parameter_dict:
            if len(key) > len(net_name) and key.endswith(net_name) and key[:-len(net_name)] not in tried:
                return key[:-len(net_name)]
    return None


def _plan_with_prefixes(net, parameter_dict, not_loaded, strict_load, plan):
    """MindSpore's fallback: a checkpoint name that is some prefix + a missing net name also loads it."""
    tried = set()
    while not_loaded:
        prefix = _find_prefix(parameter_dict, not_loaded, tried)
        if prefix is None:
            return
        tried.add(prefix)
        logger.warning("load_param_into_net: stripping the prefix %r from checkpoint names", prefix)
        for _, param in net.parameters_and_names():
            key = prefix + param.name
            if param.name in not_loaded and key in parameter_dict and not isinstance(parameter_dict[key], str):
                plan.append((param, _fit(param, parameter_dict[key], param.name, strict_load)))
                not_loaded.remove(param.name)


def load_param_into_net(net, parameter_dict, strict_load=False, remove_redundancy=False):
    """Load ``parameter_dict`` (name -> Parameter/Tensor) into ``net``'s parameters, matched by name.

    Returns ``(param_not_load, ckpt_not_load)``: network parameters that got no value, and checkpoint names
    that were not used (as in MindSpore, names used through the prefix fallback stay in the second list).
    Unless ``strict_load``, float<->float and int<->int dtype differences are cast to the network's dtype.
    Everything is checked before the first assignment, so an error leaves ``net`` unchanged.
    """
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"For 'load_param_into_net', 'parameter_dict' must be a dict, "
                        f"got {type(parameter_dict).__name__}")
    if not hasattr(net, "parameters_and_names"):
        raise TypeError(f"For 'load_param_into_net', 'net' must be a Cell, got {type(net).__name__}")
    if remove_redundancy:
        raise NotImplementedError("sprout does not support remove_redundancy (it is for parallel training)")
    plan, param_not_load, used = [], [], set()
    for _, param in net.parameters_and_names():
        name = param.name
        if name in parameter_dict:
            value = parameter_dict[name]
            if isinstance(value, str):  # MindSpore skips it silently, leaving the parameter unloaded and unlisted
                raise TypeError(f"For 'load_param_into_net', the value for network parameter {name!r} is a str "
                                f"({value[:40]!r}), not a Parameter or Tensor")
            plan.append((param, _fit(param, value, name, bool(strict_load))))
            used.add(name)
        elif not name.startswith("accu_grads"):
            param_not_load.append(name)
    if param_not_load and not strict_load:
        _plan_with_prefixes(net, parameter_dict, param_not_load, bool(strict_load), plan)
    for param, arr in plan:
        param.set_data(_make_tensor(arr))
    if param_not_load:
        logger.warning("load_param_into_net: %d network parameters were not loaded: %s",
                       len(param_not_load), param_not_load)
    ckpt_not_load = [name for name in parameter_dict if name not in used]
    return param_not_load, ckpt_not_load


def export(net, *inputs, file_name, file_format, **kwargs):
    """``mindspore.train.serialization.export``: see ``sprout.deploy.export``."""
    from ..deploy.api import export as _export

    return _export(net, *inputs, file_name=file_name, file_format=file_format, **kwargs)


def load(file_name, **kwargs):
    """``mindspore.train.serialization.load``: see ``sprout.deploy.load``."""
    from ..deploy.api import load as _load

    return _load(file_name, **kwargs)
