"""mindspore.mint.distributed: PyTorch-style process groups and collectives; these are sprout's
``ops.communication`` functions (docs/distributed.md)."""
from ..ops.communication import (  # noqa: F401
    P2POp, all_gather, all_gather_into_tensor, all_gather_into_tensor_uneven, all_gather_object, all_reduce,
    all_to_all, all_to_all_single, barrier,
    batch_isend_irecv, broadcast, broadcast_object_list, destroy_process_group, gather, gather_object, get_backend,
    get_global_rank, get_group_rank, get_process_group_ranks, get_rank, get_world_size, init_process_group, irecv,
    is_available, is_initialized, isend, new_group, recv, recv_object_list, reduce, reduce_scatter,
    reduce_scatter_tensor, reduce_scatter_tensor_uneven, scatter, scatter_object_list, send, send_object_list)
