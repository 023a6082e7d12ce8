"""nn.Cell: registers Parameters and sub-cells by attribute, names them by path, runs construct (or its graph)."""
from __future__ import annotations

from collections import OrderedDict

import numpy as np

from .. import context
from ..core import dispatch
from ..core import hooks as _hooks
from ..core.tensor import Parameter, ParameterTuple, Tensor
from .. import dtype as mstype
from . import _call, _precision, _set_inputs
from ._cell_extras import CellExtras, init_extras

_flags = context._flags  # read once per call: the mode switch lives in context.py
_GRAPH_MODE = context.GRAPH_MODE
_builders = dispatch._builders  # the graph builders (a list dispatch mutates in place, never rebinds)
STAGE_RECORDER = [None]  # sprout.nn.pipeline sets it: the pipeline_stage of the nodes a staged cell emits


def _generated_name(name) -> bool:
    return name is None or name == "" or name.startswith("Parameter#") or name.startswith("Parameter$")


def _indent(text: str, spaces: int) -> str:
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    pad = " " * spaces
    return lines[0] + "\n" + "\n".join(pad + line for line in lines[1:])


class Cell(CellExtras):
    """Base class of every network block. Subclasses define ``construct``; Parameters and Cells assigned as
    attributes are registered (``self.fc = nn.Dense(...)`` names its weight ``fc.weight``)."""

    _amp_policy = None  # set by to_float: the mixed-precision policy every op inside this cell runs under

    def __init__(self, auto_prefix: bool = True, flags: dict | None = None):
        d = self.__dict__
        d["_params"] = OrderedDict()
        d["_cells"] = OrderedDict()
        d["_auto_prefix"] = auto_prefix
        d["training"] = False
        d["requires_grad"] = False
        d["_forward_pre_hooks"] = OrderedDict()
        d["_forward_hooks"] = OrderedDict()
        d["_backward_hooks"] = OrderedDict()
        d["_backward_pre_hooks"] = OrderedDict()
        d["_has_bprop"] = callable(getattr(type(self), "bprop", None))
        d["_plain"] = not d["_has_bprop"]
        d["_jit_config"] = None
        d["_dynamic_inputs"] = None
        d["_param_id"] = 0
        init_extras(self)
        if flags:
            self.add_flags(**flags)

    # ---- calling ---------------------------------------------------------------------------------
    def construct(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must define construct(self, ...)")

    _shard = None  # Cell.shard: the sprout.parallel.spmd.Shard calls run through

    def shard(self, in_strategy, out_strategy=None, parameter_plan=None, device="Ascend", level=0):
        """MindSpore's ``Cell.shard``: calls of this cell run split over the ranks (``sprout.parallel.spmd``)
        under semi-auto / auto parallel with more than one rank; in a world of one nothing changes."""
        from ..parallel.spmd import cell_shard

        cell_shard(self, in_strategy, out_strategy, parameter_plan, device, level)
        return self

    def __call__(self, *args, **kwargs):
        # the common path (no hooks, bprop, precision policy or shard; no graph being built; PyNative) checks
        # one instance flag and two globals; everything else is in _call_special
        if self._plain and not _builders and _flags["mode"] != _GRAPH_MODE:
            if kwargs:
                return self.construct(*args, **kwargs)
            return self.construct(*args)
        return self._call_special(args, kwargs)

    def _call_special(self, args: tuple, kwargs: dict):
        rec = STAGE_RECORDER[0]
        if rec is not None and _builders and "_pipeline_stage" in self.__dict__:
            return rec(self, self._call_unstaged, args, kwargs)  # a PipelineCell is traced (sprout.nn.pipeline)
        return self._call_unstaged(args, kwargs)

    def _call_unstaged(self, args: tuple, kwargs: dict):
        if self._shard is not None and not kwargs:
            return self._shard(*args)
        if _builders:
            hook = _hooks.callee  # an AST capture is tracing: a user construct is converted as its caller is
            if hook is not None:
                fn = hook(self)
                if fn is not None:
                    if self._amp_policy is not None:
                        return _precision.call_with(self._amp_policy, fn, args, kwargs)
                    return fn(*args, **kwargs)
        elif _flags["mode"] == _GRAPH_MODE:
            if not self._plain:
                _call.check_graph_mode_hooks(self)
            if self._dynamic_inputs is not None:
                _set_inputs.check(self._dynamic_inputs[0], args)
            from ..jit.api import run_cell_graph_mode  # graph mode belongs to the compiler

            if self._amp_policy is not None:
                return _precision.call_with(self._amp_policy, run_cell_graph_mode, (self, args, kwargs), {})
            return run_cell_graph_mode(self, args, kwargs)
        if self._plain:
            return self.construct(*args, **kwargs)
        return self._call_hooked(args, kwargs)

    def _run(self, args: tuple, kwargs: dict):
        if self._amp_policy is not None:
            return _precision.call_with(self._amp_policy, self._run_construct, (args, kwargs), {})
        return self._run_construct(args, kwargs)

    def _run_construct(self, args: tuple, kwargs: dict):
        if self._has_bprop and dispatch._slow:
            tapes = dispatch.active_tapes()
            # (a graph being traced under an eager tape that cannot see its tracers takes the branch below)
            if tapes and (not dispatch._builders or any(t.sees(args) for t in tapes)):
                return _call.call_with_bprop(self, args, kwargs, tapes)
            if dispatch._builders:  # a graph: the call carries the bprop for a gradient of it (grad-of-jit)
                return _call.trace_with_bprop(self, args, kwargs)
        return self.construct(*args, **kwargs)

    def _call_hooked(self, args: tuple, kwargs: dict):
        call = [args, kwargs, None, set()]  # current args, kwargs, output; ids of always_call hooks already run
        try:
            return self._call_hooked_inner(call)
        except Exception:
            _call.run_always_call_hooks(self, *call)
            raise

    def _call_hooked_inner(self, call: list):
        args, kwargs = call[0], call[1]
        for hook, with_kwargs in list(self._forward_pre_hooks.values()):
            if with_kwargs:
                res = hook(self, args, kwargs)
                if res is not None:
                    if not (isinstance(res, tuple) and len(res) == 2):
                        raise TypeError("forward pre hook with_kwargs=True must return None or (args, kwargs)")
                    args, kwargs = _call._as_tuple(res[0]), res[1]
            else:
                res = hook(self, args)
                if res is not None:
                    args = res if isinstance(res, tuple) else (res,)
            call[0], call[1] = args, kwargs

        def run(args: tuple, kwargs: dict):
            out = call[2] = self._run(args, kwargs)
            for hid, (hook, with_kwargs, always_call) in list(self._forward_hooks.items()):
                if always_call:
                    call[3].add(hid)
                res = hook(self, args, kwargs, out) if with_kwargs else hook(self, args, out)
                if res is not None:
                    out = call[2] = res
            return out

        tapes = dispatch.active_tapes() if dispatch._slow else ()
        if tapes and (self._backward_hooks or self._backward_pre_hooks):
            # as in MindSpore, the backward hooks see the gradient of the output the forward hooks return
            return _call.call_with_backward_hooks(self, args, kwargs, tapes, run)
        return run(args, kwargs)

    def _refresh_plain(self) -> None:
        """``_plain``: calls take __call__'s common path (nothing but construct runs). Whoever sets a hook, a
        precision policy or ``_shard`` on the instance calls this."""
        self.__dict__["_plain"] = not (self._has_bprop or self._forward_pre_hooks or self._forward_hooks
                                       or self._backward_hooks or self._backward_pre_hooks
                                       or self._amp_policy is not None or self._shard is not None)

    # ---- hooks (PyNative only) -------------------------------------------------------------------
    def register_forward_pre_hook(self, hook_fn, *, prepend: bool = False, with_kwargs: bool = False):
        """``hook_fn(cell, args)`` runs before construct; returning a value replaces the inputs."""
        _check_hook(hook_fn)
        return _call.add_hook(self, self._forward_pre_hooks, (hook_fn, with_kwargs), prepend)

    def register_forward_hook(self, hook_fn, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False):
        """``hook_fn(cell, args, output)`` runs after construct; returning a value replaces the output. With
        ``always_call`` it also runs when the call raises (output: the last one made, or None), then the error
        propagates (an error of the hook itself is a warning)."""
        _check_hook(hook_fn)
        return _call.add_hook(self, self._forward_hooks, (hook_fn, with_kwargs, bool(always_call)), prepend)

    def register_backward_pre_hook(self, hook_fn):
        """``hook_fn(cell, grad_output)`` runs when the output gradient arrives; may return new grad_output."""
        _check_hook(hook_fn)
        return _call.add_hook(self, self._backward_pre_hooks, hook_fn)

    def register_backward_hook(self, hook_fn):
        """``hook_fn(cell, grad_input, grad_output)`` runs when the input gradients are known; may return new
        grad_input (a tuple, one gradient per tensor input)."""
        _check_hook(hook_fn)
        return _call.add_hook(self, self._backward_hooks, hook_fn)

    # ---- attribute registration --------------------------------------------------------------------
    def __setattr__(self, name: str, value) -> None:
        d = self.__dict__
        if isinstance(value, Parameter):
            if "_params" not in d:
                raise AttributeError(f"{type(self).__name__}: call Cell.__init__() before assigning Parameter "
                                     f"'{name}'")
            if name in d and name not in d["_params"]:
                del d[name]
            self.insert_param_to_cell(name, value)
        elif isinstance(value, ParameterTuple):
            self._set_parameter_tuple(name, value)
        elif isinstance(value, Cell):
            if "_cells" not in d:
                raise AttributeError(f"{type(self).__name__}: call Cell.__init__() before assigning Cell '{name}'")
            if name in d and name not in d["_cells"]:
                del d[name]
            if self._auto_prefix:
                value.update_parameters_name(name + ".")
            self.insert_child_to_cell(name, value)
        else:
            params = d.get("_params")
            if params is not None and name in params:
                if value is None:
                    params[name] = None
                elif isinstance(value, Tensor):
                    params[name].set_data(value)
                    return
                else:
                    raise TypeError(f"Parameter '{name}' already exists in network, can not assign this type: "
                                    f"'{type(value)}' as a parameter.")
            buffers = d.get("_buffers")
            if buffers is not None and name in buffers:
                if value is not None and not isinstance(value, Tensor):
                    raise TypeError(f"cannot assign '{type(value)}' as buffer '{name}' (Tensor or None expected)")
                buffers[name] = value
                return
            cells = d.get("_cells")
            if cells is not None and name in cells:
                if value is not None:
                    raise TypeError(f"Sub cell '{name}' already exists in network, can not assign this type: "
                                    f"'{type(value)}' as a cell.")
                cells[name] = None
            object.__setattr__(self, name, value)

    def __getattr__(self, name: str):
        # reached only when normal lookup fails: parameters registered by name through a ParameterTuple
        d = self.__dict__
        if "_params" in d and name in d["_params"]:
            return d["_params"][name]
        if "_cells" in d and name in d["_cells"]:
            return d["_cells"][name]
        if "_buffers" in d and name in d["_buffers"]:
            return d["_buffers"][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        d = self.__dict__
        if name in d.get("_buffers", {}):
            del d["_buffers"][name]
            d["_non_persistent_buffers_set"].discard(name)
            return
        d.get("_params", {}).pop(name, None)
        d.get("_cells", {}).pop(name, None)
        object.__delattr__(self, name)

    def _set_parameter_tuple(self, name: str, value: ParameterTuple) -> None:
        seen_names, seen = set(), set()
        for item in value:
            if id(item) in seen:
                continue
            seen.add(id(item))
            if _generated_name(item.name):
                item.name = f"Parameter${self._param_id}"
                self.__dict__["_param_id"] += 1
            if item.name in seen_names:
                raise ValueError(f"The value {value}, its name '{item.name}' already exists. "
                                 "Please set a unique name for the parameter.")
            seen_names.add(item.name)
            self.insert_param_to_cell(item.name, item, check_name_contain_dot=False)
        object.__setattr__(self, name, value)

    def insert_param_to_cell(self, param_name: str, param, check_name_contain_dot: bool = True) -> None:
        if not param_name:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not be None.")
        if check_name_contain_dot and "." in param_name:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not contain'.' ")
        if "_params" not in self.__dict__:
            raise AttributeError("For 'insert_param_to_cell', please call Cell.__init__() firstly.")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"For 'insert_param_to_cell', the argument 'param' must be 'Parameter' if not None, "
                            f"but got {type(param)}.")
        if param is not None and _generated_name(param.name):
            param.name = param_name
        self._params[param_name] = param
        if check_name_contain_dot:
            self.__dict__[param_name] = param

    def insert_child_to_cell(self, child_name: str, child_cell) -> None:
        if not isinstance(child_name, str):
            raise TypeError(f"For 'insert_child_to_cell', the type of parameter 'child_name' must be str, "
                            f"but got {type(child_name)}.")
        if not child_name or "." in child_name:
            raise KeyError("For 'insert_child_to_cell', the parameter 'child_name' can not be None and "
                           "can not contain '.' ")
        if child_cell is not None and not isinstance(child_cell, Cell):
            raise TypeError(f"For 'insert_child_to_cell', the argument 'child_cell' must be 'Cell' if not None, "
                            f"but got type {type(child_cell)}.")
        self._cells[child_name] = child_cell
        self.__dict__[child_name] = child_cell

    # ---- traversal and naming -------------------------------------------------------------------------
    def cells_and_names(self, cells=None, name_prefix: str = ""):
        """(path, cell) for this cell and every sub-cell, depth first; each cell once."""
        seen = cells if cells is not None else set()
        if id(self) in seen:
            return
        seen.add(id(self))
        yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is not None:
                yield from cell.cells_and_names(seen, f"{name_prefix}.{name}" if name_prefix else name)

    def parameters_and_names(self, name_prefix: str = "", expand: bool = True):
        """(attribute path, Parameter) for every parameter, each once (the first path that reaches it)."""
        cells = self.cells_and_names(name_prefix=name_prefix) if expand else [(name_prefix, self)]
        seen = set()
        for cell_name, cell in cells:
            for par_name, par in cell._params.items():
                if par is not None and id(par) not in seen:
                    seen.add(id(par))
                    yield (f"{cell_name}.{par_name}" if cell_name else par_name), par

    def get_parameters(self, expand: bool = True):
        for _, param in self.parameters_and_names(expand=expand):
            yield param

    def trainable_params(self, recurse: bool = True) -> list:
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse: bool = True) -> list:
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse: bool = True) -> OrderedDict:
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def update_parameters_name(self, prefix: str = "", recurse: bool = True) -> None:
        """Name every parameter ``prefix + its attribute path`` (done when a cell is attached)."""
        if not isinstance(prefix, str):
            raise TypeError(f"update_parameters_name: prefix must be a str, got {type(prefix).__name__}")
        for name, param in self.parameters_and_names(expand=recurse):
            param.name = prefix + name

    def check_names(self) -> None:
        names = set()
        for path, param in self.parameters_and_names():
            if param.name in names:
                raise ValueError(f"The value of {path} is {param}, its name '{param.name}' already exists. "
                                 "Please set a unique name for the parameter.")
            names.add(param.name)

    def name_cells(self) -> OrderedDict:
        out, seen = OrderedDict(), set()
        for name, cell in self._cells.items():
            if cell is not None and id(cell) not in seen:
                seen.add(id(cell))
                out[name] = cell
        return out

    def cells(self):
        return self.name_cells().values()

    def apply(self, fn):
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
        return self

    def init_parameters_data(self, auto_parallel_mode: bool = False) -> dict:
        """Make the values of parameters created under ``nn.no_init_parameters`` (running the cell, or any read of
        a parameter's data, does it too)."""
        return {p: p.init_data() for p in self.get_parameters()}

    # ---- modes and flags -------------------------------------------------------------------------------
    def set_train(self, mode: bool = True):
        """Training mode for this cell and every sub-cell (Dropout, BatchNorm read ``self.training``)."""
        if not isinstance(mode, (bool, np.bool_)):  # MindSpore stores any value; set_train("no") would train
            raise TypeError(f"Cell.set_train: mode must be a bool, got {type(mode).__name__} {mode!r}")
        for _, cell in self.cells_and_names():
            cell.__dict__["training"] = bool(mode)
        return self

    def set_grad(self, requires_grad: bool = True):
        self.requires_grad = requires_grad
        return self

    def add_flags(self, **flags):
        self.__dict__.setdefault("_func_graph_flags", {}).update(flags)
        self.__dict__.update(flags)
        for key in ("fp16", "fp32"):  # MindSpore's precision flags (to_float sets them recursively)
            if flags.get(key):
                self.__dict__["_amp_policy"] = _precision.policy_for(mstype.float16 if key == "fp16"
                                                                     else mstype.float32)
                self._refresh_plain()
        if flags.get("bf16"):
            self.__dict__["_amp_policy"] = _precision.policy_for(mstype.bfloat16)
            self._refresh_plain()
        return self

    def add_flags_recursive(self, **flags):
        self.add_flags(**flags)
        for cell in self.cells():
            cell.add_flags_recursive(**flags)
        return self

    def get_flags(self) -> dict:
        return self.__dict__.setdefault("_func_graph_flags", {})

    def set_jit_config(self, jit_config) -> None:
        """Store the JitConfig the compiler uses when this cell runs as a graph."""
        self.__dict__["_jit_config"] = jit_config

    @property
    def jit_config_dict(self):
        cfg = self._jit_config
        return getattr(cfg, "jit_config_dict", cfg)

    def set_inputs(self, *inputs, **kwargs) -> None:
        """Declare the inputs (Tensors, or shape-only ``Tensor(shape=[None, ...], dtype)``) GRAPH_MODE calls must fit:
        each call is checked against them (dtype, rank, static dims), as in MindSpore."""
        self.__dict__["_dynamic_inputs"] = (inputs, kwargs)

    def get_inputs(self):
        return None if self._dynamic_inputs is None else self._dynamic_inputs[0]

    def to_float(self, dst_type):
        """Run this cell and its sub-cells with ``dst_type`` (float16 / float32 / bfloat16): every op inside casts
        its float inputs (arguments, Parameters, intermediates) to it, as MindSpore's PyNative executor does; a
        sub-cell's own later ``to_float`` overrides it inside that sub-cell. Parameters stay stored in their own
        dtype."""
        _precision.policy_for(dst_type)  # validates
        self.add_flags_recursive(fp16=dst_type is mstype.float16, fp32=dst_type is mstype.float32,
                                 bf16=dst_type is mstype.bfloat16)
        return self

    def recompute(self, *, use_reentrant=True, output_recompute=False, early_stop=True, context_fn=None, **kwargs):
        """MindSpore's recompute mark, checked as MindSpore 2.10 checks it. Recomputation trades memory for time and
        leaves values and gradients unchanged; sprout keeps the activations, so the mark changes nothing else."""
        for key, value in kwargs.items():
            if key not in ("mp_comm_recompute", "parallel_optimizer_comm_recompute", "recompute_slice_activation"):
                raise ValueError(f"For 'recompute', keyword '{key}' is not recognized! the key kwargs must be "
                                 "'mp_comm_recompute', 'parallel_optimizer_comm_recompute', "
                                 "'recompute_slice_activation'")
            if key != "recompute_slice_activation" and not isinstance(value, bool):
                raise TypeError(f"The parameter '{key}' must be <class 'bool'>, but got {type(value)}")
        if context_fn is not None and use_reentrant and not output_recompute:
            raise ValueError("context_fn is only supported when use_reentrant=False.")
        return self

    # ---- printing ------------------------------------------------------------------------------
    @property
    def cls_name(self) -> str:
        return type(self).__name__

    def _get_name(self) -> str:
        return type(self).__name__

    def extend_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        extra = self.extend_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({key}): {_indent(repr(cell), 2)}" for key, cell in self._cells.items()]
        lines = extra_lines + child_lines
        body = ""
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                body = extra_lines[0]
            else:
                body = "\n  " + "\n  ".join(lines) + "\n"
        return f"{self._get_name()}({body})"

    __str__ = __repr__


def _check_hook(hook_fn) -> None:
    if not callable(hook_fn):
        raise TypeError(f"the hook must be a Python function, but got {type(hook_fn).__name__}")
