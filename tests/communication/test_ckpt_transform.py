"""Per-rank checkpoint transforms (rank_list_for_transform, transform_checkpoint_by_rank, unified_safetensors) over
strategy files and per-rank slices written here, checked against the whole parameters."""
import json

import numpy as np
import pytest

import sprout as ms
from sprout.parallel.spmd_ckpt import block_index

W = np.arange(24, dtype=np.float32).reshape(4, 6)
B = np.arange(6, dtype=np.float32)
SRC = {"w": {"dev_matrix": [2, 2], "tensor_map": [1, 0], "shape": [4, 6]},       # rows x cols over 4 ranks
       "b": {"dev_matrix": [2, 2], "tensor_map": [-1], "shape": [6]}}             # replicated
DST = {"w": {"dev_matrix": [2], "tensor_map": [0, -1], "shape": [4, 6]},          # rows over 2 ranks
       "b": {"dev_matrix": [2], "tensor_map": [0], "shape": [6]}}                 # split over 2 ranks


def _strategy(path, table):
    path.write_text(json.dumps({"parallel_layout": table}))
    return str(path)


def _save_ranks(tmp_path, fmt="ckpt"):
    files = {}
    for r in range(4):
        d = tmp_path / "src" / f"rank_{r}"
        d.mkdir(parents=True)
        entries = [{"name": "w", "data": ms.Tensor(np.ascontiguousarray(W[block_index(SRC["w"], r)]))},
                   {"name": "b", "data": ms.Tensor(B)}]
        f = d / f"net.{fmt}"
        ms.save_checkpoint(entries, str(f), format=fmt)
        files[r] = str(f)
    return files


def test_rank_list_for_transform_names_the_source_blocks_needed(tmp_path):
    src, dst = _strategy(tmp_path / "src.json", SRC), _strategy(tmp_path / "dst.json", DST)
    assert ms.rank_list_for_transform(0, src, dst) == [0, 1]     # rows 0-1: both column blocks of the first row band
    assert ms.rank_list_for_transform(1, src, dst) == [0, 2, 3]  # rows 2-3 (and b, replicated: rank 0)
    assert ms.rank_list_for_transform(0, src, None) == [0, 1, 2, 3]  # whole parameters need every block
    assert ms.rank_list_for_transform(3, None, None) == [0]
    with pytest.raises(TypeError, match="rank_id"):
        ms.rank_list_for_transform("0", src, dst)
    with pytest.raises(ValueError, match="not a rank"):
        ms.rank_list_for_transform(2, src, dst)


def test_transform_checkpoint_by_rank_builds_a_destination_rank(tmp_path):
    files = _save_ranks(tmp_path)
    src, dst = _strategy(tmp_path / "src.json", SRC), _strategy(tmp_path / "dst.json", DST)
    for rank in (0, 1):
        needed = ms.rank_list_for_transform(rank, src, dst)
        out = str(tmp_path / "dst" / f"rank_{rank}" / "net.ckpt")
        ms.transform_checkpoint_by_rank(rank, {r: files[r] for r in needed}, out, src, dst)
        got = ms.load_checkpoint(out)
        np.testing.assert_array_equal(got["w"].asnumpy(), W[2 * rank:2 * rank + 2])
        np.testing.assert_array_equal(got["b"].asnumpy(), B[3 * rank:3 * rank + 3])
    whole = str(tmp_path / "whole.ckpt")
    ms.transform_checkpoint_by_rank(0, files, whole, src, None)
    np.testing.assert_array_equal(ms.load_checkpoint(whole)["w"].asnumpy(), W)
    with pytest.raises(ValueError, match="source rank 3"):
        ms.transform_checkpoint_by_rank(1, {0: files[0], 2: files[2]}, out, src, dst)
    with pytest.raises(TypeError, match="checkpoint_files_map"):
        ms.transform_checkpoint_by_rank(0, [files[0]], out, src, dst)


def test_unified_safetensors_merges_every_rank(tmp_path):
    _save_ranks(tmp_path, "safetensors")
    src = _strategy(tmp_path / "src.json", SRC)
    ms.unified_safetensors(str(tmp_path / "src"), src, str(tmp_path / "out"))
    got = ms.load_checkpoint(str(tmp_path / "out" / "unified.safetensors"), format="safetensors")
    np.testing.assert_array_equal(got["w"].asnumpy(), W)
    np.testing.assert_array_equal(got["b"].asnumpy(), B)
    ms.unified_safetensors(str(tmp_path / "src"), src, str(tmp_path / "only_w"), choice_func=lambda n: n == "w")
    assert set(ms.load_checkpoint(str(tmp_path / "only_w" / "unified.safetensors"), format="safetensors")) == {"w"}
    with pytest.raises(NotImplementedError, match="merge_with_redundancy"):
        ms.unified_safetensors(str(tmp_path / "src"), src, str(tmp_path / "x"), merge_with_redundancy=False)
