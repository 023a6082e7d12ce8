"""The parts of nn.Cell beyond registration and calling: buffers, state_dict / load_state_dict (with their hooks),
``to`` / ``to_empty``, ahead-of-time ``compile`` / ``compile_and_run``, scopes and MindSpore's bookkeeping flags."""
from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Mapping

import numpy as np

from .. import dtype as mstype
from ..core.tensor import Parameter, Tensor
from . import _call

class IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` could not match (MindSpore's ``_IncompatibleKeys``)."""

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self.missing_keys}, unexpected_keys={self.unexpected_keys})"
_EXTRA_STATE = "_extra_state"


def init_extras(cell) -> None:
    d = cell.__dict__
    d["_buffers"] = OrderedDict()
    d["_non_persistent_buffers_set"] = set()
    d["_state_dict_hooks"] = OrderedDict()
    d["_state_dict_pre_hooks"] = OrderedDict()
    d["_load_state_dict_pre_hooks"] = OrderedDict()
    d["_load_state_dict_post_hooks"] = OrderedDict()
    d["_param_prefix"] = ""
    d["_scope"] = None
    d["_bprop_debug"] = False
    d["cell_type"] = None
    d["_exist_names"] = set()
    d["_exist_objs"] = set()


def _parse_to_args(args, kwargs):
    """(device, dtype) from Cell.to's arguments: a device string and/or a dtype, positional or by keyword."""
    device, dtype = kwargs.pop("device", None), kwargs.pop("dtype", None)
    kwargs.pop("non_blocking", None)
    if kwargs:
        raise TypeError(f"Cell.to got unexpected keyword arguments {sorted(kwargs)}")
    for a in args:
        if isinstance(a, str):
            device = a
        elif isinstance(a, mstype.Type):
            dtype = a
        elif a is not None:
            raise TypeError(f"Failed calling Cell.to with \"Cell.to({type(a)})\". The valid calling should be: "
                            "\"Cell.to(device=<None, string>, dtype=<None, mstype>, non_blocking=<bool>)\".")
    if device is not None and device.split(":")[0].lower() != "cpu":
        raise RuntimeError(f"Cell.to: sprout runs on the CPU; the device {device!r} is not available.")
    return device, dtype


class CellExtras:
    """Mixed into nn.Cell."""

    # ---- pipeline parallel -------------------------------------------------------------------------
    @property
    def pipeline_stage(self):
        """The pipeline stage of this cell's computation (``sprout.nn.pipeline``); unset until assigned, as in
        MindSpore (reading it first raises AttributeError)."""
        stage = self.__dict__.get("_pipeline_stage")
        if stage is None:
            raise AttributeError(f"The '{type(self).__name__}' object has no attribute 'pipeline_stage'.")
        return stage

    @pipeline_stage.setter
    def pipeline_stage(self, value):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"For 'Cell', the property 'pipeline_stage' must be int type, but got type : "
                            f"{type(value)}")
        if value < 0:
            raise ValueError(f"For 'Cell', the property 'pipeline_stage' can not be less than 0, but got {value}")
        self.__dict__["_pipeline_stage"] = value

    # ---- buffers ------------------------------------------------------------------------------------
    def register_buffer(self, name, tensor, persistent=True) -> None:
        """A Tensor that belongs to the cell's state (in ``state_dict`` unless not ``persistent``) but is not a
        Parameter: not trained, not in ``get_parameters``."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Cell.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string.But got this type: {type(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{type(tensor)}' object to buffer '{name}' (mindspore Tensor or None "
                            "required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def _named_members(self, members, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True):
        seen = set()
        cells = self.cells_and_names(name_prefix=prefix) if recurse else [(prefix, self)]
        for cell_prefix, cell in cells:
            for k, v in members(cell):
                if v is None or id(v) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(v))
                yield (f"{cell_prefix}.{k}" if cell_prefix else k), v

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members(lambda c: c._buffers.items(), prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def get_sub_cell(self, target: str):
        """The sub-cell at a dotted attribute path ("" is the cell itself)."""
        if target == "":
            return self
        cell = self
        for item in target.split("."):
            if not hasattr(cell, item):
                raise AttributeError(f"{cell._get_name()} has no attribute `{item}`")
            cell = getattr(cell, item)
            if not isinstance(cell, CellExtras):
                raise AttributeError(f"`{item}` is not an nn.Cell")
        return cell

    def get_buffer(self, target: str):
        path, _, name = target.rpartition(".")
        cell = self.get_sub_cell(path)
        if not hasattr(cell, name):
            raise AttributeError(f"{cell._get_name()} has no attribute `{name}`")
        if name not in cell._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return cell._buffers[name]

    # ---- state dict ---------------------------------------------------------------------------------
    def get_extra_state(self):
        raise RuntimeError("Reached a code path in Cell.get_extra_state() that should never be called.")

    def set_extra_state(self, state) -> None:
        raise RuntimeError("Reached a code path in Cell.set_extra_state() that should never be called.")

    def _has_extra_state(self, method: str) -> bool:
        return getattr(type(self), method) is not getattr(CellExtras, method)

    def register_state_dict_pre_hook(self, hook):
        """``hook(cell, prefix, keep_vars)`` runs before the cell's entries are collected."""
        return _call.add_hook(self, self._state_dict_pre_hooks, hook)

    def register_state_dict_post_hook(self, hook):
        """``hook(cell, state_dict, prefix, local_metadata)`` runs after; it must return None."""
        return _call.add_hook(self, self._state_dict_hooks, hook)

    def register_load_state_dict_pre_hook(self, hook):
        """``hook(cell, state_dict, prefix, local_metadata, strict, missing, unexpected, error_msgs)``."""
        return _call.add_hook(self, self._load_state_dict_pre_hooks, hook)

    def register_load_state_dict_post_hook(self, hook):
        """``hook(cell, incompatible_keys)`` runs after loading; it must return None."""
        return _call.add_hook(self, self._load_state_dict_post_hooks, hook)

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """An OrderedDict attribute-path -> Parameter / persistent buffer (plus ``_extra_state`` entries)."""
        if args:
            destination = args[0] if destination is None else destination
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        if destination is not None and not isinstance(destination, dict):
            raise TypeError(f"The type of destination must be OrderedDict, but got {type(destination)}")
        if not isinstance(prefix, str):
            raise TypeError(f"The type of prefix must be string, but got {type(prefix)}")
        if not isinstance(keep_vars, bool):
            raise TypeError(f"The type of keep_vars must be bool, but got {type(keep_vars)}")
        if destination is None:
            destination = OrderedDict()
        for hook in list(self._state_dict_pre_hooks.values()):
            hook(self, prefix, keep_vars)
        for name, param in self._params.items():
            if param is not None:
                destination[prefix + name] = param
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf
        if self._has_extra_state("get_extra_state"):
            destination[prefix + _EXTRA_STATE] = self.get_extra_state()
        for name, cell in self._cells.items():
            if cell is not None:
                cell.state_dict(destination=destination, prefix=f"{prefix}{name}.", keep_vars=keep_vars)
        for hook in list(self._state_dict_hooks.values()):
            if hook(self, destination, prefix, {}) is not None:
                raise RuntimeError("state_dict post-hook must return None")
        return destination

    def _load_local(self, state, prefix, missing, unexpected, errors) -> None:
        for hook in list(self._load_state_dict_pre_hooks.values()):
            hook(self, state, prefix, {}, True, missing, unexpected, errors)
        local = {k: v for k, v in self._params.items() if v is not None}
        local.update({k: v for k, v in self._buffers.items()
                      if v is not None and k not in self._non_persistent_buffers_set})
        for name, target in local.items():
            key = prefix + name
            if key not in state:
                missing.append(key)
                continue
            value = state[key]
            if not isinstance(value, Tensor):
                errors.append(f'While copying the parameter named "{key}", expected Tensor or Tensor-like object '
                              f"from checkpoint but received {type(value)}")
                continue
            if tuple(value.shape) != tuple(target.shape):
                errors.append(f"size mismatch for {key}: copying a param with shape {tuple(value.shape)} from "
                              f"checkpoint, the shape in current model is {tuple(target.shape)}.")
                continue
            data = value.asnumpy().astype(target.dtype.np)
            if isinstance(target, Parameter):
                target.set_data(Tensor(data))
            else:
                self._buffers[name] = Tensor(data)
        extra = prefix + _EXTRA_STATE
        if self._has_extra_state("set_extra_state"):
            if extra in state:
                self.set_extra_state(state[extra])
            else:
                missing.append(extra)
        elif extra in state:
            unexpected.append(extra)
        for key in state:
            if key.startswith(prefix) and key != extra:
                head = key[len(prefix):].split(".", 1)
                if (len(head) > 1 and head[0] not in self._cells) or (len(head) == 1 and head[0] not in local):
                    unexpected.append(key)

    def load_state_dict(self, state_dict, strict=True):
        """Copy values by attribute path into the parameters and buffers; with ``strict`` missing or unexpected
        keys are an error. Returns (missing_keys, unexpected_keys)."""
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing, unexpected, errors = [], [], []

        def load(cell, local_state, prefix=""):
            cell._load_local(local_state, prefix, missing, unexpected, errors)
            for name, child in cell._cells.items():
                if child is not None:
                    child_prefix = f"{prefix}{name}."
                    load(child, {k: v for k, v in local_state.items() if k.startswith(child_prefix)}, child_prefix)
            keys = IncompatibleKeys(missing, unexpected)
            for hook in list(cell._load_state_dict_post_hooks.values()):
                if hook(cell, keys) is not None:
                    raise RuntimeError("Hooks registered with ``register_load_state_dict_post_hook`` are not expected "
                                       "to return new values.")

        load(self, OrderedDict(state_dict))
        if strict:
            if unexpected:
                errors.insert(0, f"Unexpected key(s) in state_dict: {', '.join(repr(k) for k in unexpected)}. "
                              .replace("'", '"'))
            if missing:
                errors.insert(0, f"Missing key(s) in state_dict: {', '.join(repr(k) for k in missing)}. "
                              .replace("'", '"'))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(type(self).__name__,
                                                                                    "\n\t".join(errors)))
        return IncompatibleKeys(missing, unexpected)

    # ---- dtype / device -----------------------------------------------------------------------------
    def _apply(self, fn, recurse=True):
        """Replace every parameter's data and every buffer by ``fn`` of it (sub-cells first)."""
        if recurse:
            for cell in self.cells():
                if cell is not None and cell is not self:
                    cell._apply(fn)
        for param in self._params.values():
            if param is not None:
                param.set_data(fn(param))
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def to(self, *args, **kwargs):
        """Cast the floating-point parameters and buffers to ``dtype`` (a float dtype); ``device`` may only be the
        CPU."""
        _, dtype = _parse_to_args(args, dict(kwargs))
        if dtype is None:
            return self
        if not dtype.is_float:
            raise TypeError(f"Cell.to only accepts floating point or complex dtypes, but got desired dtype={dtype}")

        def convert(t):
            return Tensor(t.asnumpy().astype(dtype.np)) if t.dtype.is_float else t

        return self._apply(convert)

    def to_empty(self, *, device=None, recurse=True):
        """Parameters and buffers replaced by uninitialised (here: zero) tensors of the same shape and dtype."""
        _parse_to_args((device,) if device is not None else (), {})
        return self._apply(lambda t: Tensor(np.zeros(tuple(t.shape), t.dtype.np)), recurse=recurse)

    # ---- graph compilation ----------------------------------------------------------------------------
    def compile(self, *args, **kwargs):
        """Compile ``construct`` for these inputs (shapes/dtypes) without running it; later graph calls with
        matching inputs reuse it."""
        from ..jit import graph_mode_entry  # the same entry GRAPH_MODE calls use: later calls reuse the compile

        graph_mode_entry(self).explain(*args, **kwargs)
        self.__dict__["_compiled"] = True

    def compile_and_run(self, *args, **kwargs):
        """Compile (if needed) and run ``construct`` as a graph, whatever the execution mode."""
        from ..jit import graph_mode_entry

        self.compile(*args, **kwargs)
        return graph_mode_entry(self)(*args, **kwargs)

    @property
    def compiled(self) -> bool:
        return self.__dict__.get("_compiled", False)

    # ---- MindSpore's bookkeeping (names, scopes, flags) -------------------------------------------------
    @property
    def param_prefix(self) -> str:
        return self._param_prefix

    def update_cell_prefix(self) -> None:
        """Record on every sub-cell its attribute path (``param_prefix``)."""
        for name, cell in self.cells_and_names():
            cell.__dict__["_param_prefix"] = name

    def update_cell_type(self, cell_type) -> None:
        self.__dict__["cell_type"] = cell_type

    @property
    def exist_names(self) -> set:
        return self._exist_names

    @property
    def exist_objs(self) -> set:
        return self._exist_objs

    @property
    def bprop_debug(self) -> bool:
        return self._bprop_debug

    @bprop_debug.setter
    def bprop_debug(self, value) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"For 'Cell', the property 'bprop_debug' must be bool type, but got type {type(value)}.")
        self.__dict__["_bprop_debug"] = value

    def get_scope(self):
        return self._scope

    def generate_scope(self) -> None:
        """Give every sub-cell its scope name "Default/<path>-<ClassName>" (what MindSpore's IR dumps show)."""
        def walk(cell, scope):
            cell.__dict__["_scope"] = scope
            for name, child in cell.name_cells().items():
                walk(child, f"{scope}/{name}-{type(child).__name__}")

        walk(self, "Default")

    def parameters_broadcast_dict(self, recurse=True):
        """name -> Parameter of the parameters a data-parallel start broadcasts (all, on one process); None if none."""
        out = OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))
        return out or None

    def set_comm_fusion(self, fusion_type, recurse=True):
        """Record each trainable parameter's gradient all-reduce fusion group (``_comm_fusion``: name -> group), which
        only the bucketing of data-parallel gradient reduction reads."""
        if isinstance(fusion_type, bool) or not isinstance(fusion_type, int) or fusion_type < 0:
            raise ValueError(f"The input value must be int and must >= 0, but got '{fusion_type}'.")
        fusion = self.__dict__.setdefault("_comm_fusion", {})
        for p in self.trainable_params(recurse):
            fusion[p.name] = fusion_type
        return self

    def set_boost(self, boost_type):
        """MindSpore's boost flag ('less_bn'); only ``Model(boost_level=...)`` acts on it, which sprout refuses."""
        if boost_type not in ("less_bn",):
            raise ValueError(f"For 'set_boost', the argument 'boost_type' must be 'less_bn', but got {boost_type}.")
        return self.add_flags_recursive(less_bn=True)

    def set_broadcast_flag(self, mode=True):
        return self.add_flags_recursive(broadcast_flag=mode)
