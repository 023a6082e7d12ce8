"""set_context cases: (key, value as Python source). tools/ms_context_oracle.py runs each under MindSpore 2.10 and
stores whether it raised (type, message) or what get_context then returned (tests/api/data/context.json)."""

CASES = [
    ("max_call_depth", "-1"), ("max_call_depth", "0"), ("max_call_depth", "'5'"), ("max_call_depth", "2.0"),
    ("max_call_depth", "3000"), ("device_id", "-1"), ("device_id", "5000"), ("device_id", "'0'"), ("device_id", "1"),
    ("reserve_class_name_in_scope", "'yes'"), ("reserve_class_name_in_scope", "False"),
    ("graph_kernel_flags", "1"), ("graph_kernel_flags", "'--opt_level=2'"),
    ("enable_auto_mixed_precision", "True"), ("enable_auto_mixed_precision", "1"),
    ("variable_memory_max_size", "'3GB'"), ("variable_memory_max_size", "3"), ("variable_memory_max_size", "'abc'"),
    ("variable_memory_max_size", "'40GB'"),
    ("max_device_memory", "'3.5GB'"), ("max_device_memory", "'abc'"), ("max_device_memory", "3"),
    ("max_device_memory", "'0GB'"),
    ("ascend_config", "{'precision_mode': 'force_fp16'}"), ("ascend_config", "'x'"),
    ("ascend_config", "{'precision_mode': 'fp8'}"), ("ascend_config", "{'no_such': 1}"),
    ("ascend_config", "{'jit_compile': True, 'op_precision_mode': 'cfg.ini', 'ge_options': {}}"),
    ("ascend_config", "{'op_precision_mode': 1}"),
    ("gpu_config", "{'conv_allow_tf32': True}"), ("gpu_config", "{'conv_fprop_algo': 'fastest'}"),
    ("mempool_block_size", "'2GB'"), ("mempool_block_size", "2"), ("mempool_block_size", "'0.5GB'"),
    ("enable_reduce_precision", "True"), ("enable_reduce_precision", "'y'"),
    ("save_graphs", "True"), ("save_graphs", "False"), ("save_graphs", "5"), ("save_graphs", "'1'"),
    ("save_graphs", "3"), ("save_graphs_path", "1"),
    ("pynative_synchronize", "True"), ("pynative_synchronize", "1"),
    ("enable_graph_kernel", "True"), ("enable_graph_kernel", "'on'"),
    ("runtime_num_threads", "-1"), ("runtime_num_threads", "4"), ("runtime_num_threads", "2.5"),
    ("inter_op_parallel_num", "-1"), ("inter_op_parallel_num", "2"),
    ("op_timeout", "-1"), ("op_timeout", "100"),
    ("deterministic", "'ON'"), ("deterministic", "'on'"), ("deterministic", "True"),
    ("memory_optimize_level", "'O1'"), ("memory_optimize_level", "'O2'"), ("memory_optimize_level", "1"),
    ("exec_order", "'dfs'"), ("exec_order", "'x'"), ("debug_level", "1"), ("debug_level", "5"),
    ("jit_syntax_level", "0"), ("jit_syntax_level", "7"),
    ("jit_config", "{'jit_level': 'O1'}"), ("jit_config", "'O1'"), ("jit_config", "{'jit_level': 'O5'}"),
    ("jit_config", "{'level': 'O1'}"), ("jit_config", "{'jit_level': 'O1', 'infer_boost': 'on'}"),
    ("check_bprop", "True"), ("check_bprop", "1"),
    ("mode", "3"), ("mode", "'graph'"), ("mode", "0"), ("device_target", "'TPU'"), ("device_target", "1"),
    ("enable_compile_cache", "True"), ("compile_cache_path", "'cache_dir'"),
    ("print_file_path", "'p.pb'"), ("disable_format_transform", "True"),
    ("aoe_tune_mode", "'online'"), ("aoe_tune_mode", "'x'"), ("aoe_config", "{'job_type': '1'}"),
    ("aoe_config", "{'job_type': '3'}"), ("env_config_path", "'no_such_config.json'"),
    ("precision_mode", "'force_fp16'"), ("jit_compile", "True"), ("unknown_key", "1"),
    ("enable_sparse", "True"), ("gpu_config", "'x'"), ("profiling_options", "5"),
    ("profiling_options", "'{\"output\": \"/tmp\"}'"), ("jit_level", "'O1'"), ("infer_boost", "'on'"),
    ("infer_boost", "'yes'"), ("enable_profiling", "True"), ("save_compile_cache", "True"),
]

# Where sprout deliberately differs from MindSpore 2.10 CPU (docs/context.md):
# - keys MindSpore's CPU build ignores after the type check (device-specific ones) are checked by sprout as
#   MindSpore checks them on their device, and get_context reports the value set;
# - deprecated keys MindSpore accepts and ignores are reported by get_context (MindSpore: not recognized);
# - jit_syntax_level is reported by name; infer_boost takes only 'on'/'off' (as inside jit_config).
SPROUT = {
    ("variable_memory_max_size", "'3GB'"): ("ok", "3GB"),
    ("variable_memory_max_size", "'abc'"): ("raises", "ValueError"),
    ("variable_memory_max_size", "'40GB'"): ("raises", "ValueError"),
    ("max_device_memory", "'3.5GB'"): ("ok", 3.5),
    ("max_device_memory", "'abc'"): ("raises", "ValueError"),
    ("max_device_memory", "'0GB'"): ("raises", "ValueError"),
    ("ascend_config", "{'precision_mode': 'force_fp16'}"): ("ok", {"precision_mode": "force_fp16"}),
    ("ascend_config", "{'precision_mode': 'fp8'}"): ("raises", "ValueError"),
    ("ascend_config", "{'no_such': 1}"): ("raises", "ValueError"),
    ("ascend_config", "{'jit_compile': True, 'op_precision_mode': 'cfg.ini', 'ge_options': {}}"):
        ("ok", {"jit_compile": True, "op_precision_mode": "cfg.ini", "ge_options": {}}),
    ("ascend_config", "{'op_precision_mode': 1}"): ("raises", "TypeError"),
    ("gpu_config", "{'conv_allow_tf32': True}"): ("ok", {"conv_allow_tf32": True}),
    ("gpu_config", "{'conv_fprop_algo': 'fastest'}"): ("raises", "ValueError"),
    ("mempool_block_size", "'2GB'"): ("ok", 2.0),
    ("mempool_block_size", "'0.5GB'"): ("raises", "ValueError"),
    ("print_file_path", "'p.pb'"): ("ok", "p.pb"),
    ("disable_format_transform", "True"): ("ok", True),
    ("enable_auto_mixed_precision", "True"): ("ok", True),
    ("enable_sparse", "True"): ("ok", True),
    ("jit_syntax_level", "0"): ("ok", "STRICT"),
    ("infer_boost", "'yes'"): ("raises", "ValueError"),  # MindSpore stores any string; sprout says which are valid
}
