"""sprout.log (mindspore.log): levels from GLOG_v, MindSpore's line layout, log files under GLOG_log_dir."""
import os
import re

import pytest

import sprout as ms
from sprout import log


@pytest.fixture(autouse=True)
def _fresh_logger(monkeypatch):
    for env in log.ENV_NAMES.values():
        monkeypatch.delenv(env, raising=False)
    log._reset()
    yield
    log._reset()


def test_default_level_is_warning(capsys):
    assert ms.log is log
    log.info("hidden %d", 1)
    log.warning("shown %d", 2)
    err = capsys.readouterr().err
    assert "hidden" not in err
    assert re.match(r"\[WARNING\] ME\(\d+:\d+,MainProcess\):\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}\.\d{3} "
                    r"\[.*test_log\.py:\d+\] shown 2$", err.strip())
    assert log.get_level() == "2"
    assert log.get_log_config() == {"GLOG_v": "2", "GLOG_logtostderr": "1"}


@pytest.mark.parametrize("glog, shown", [("0", ["debug", "info", "warning", "error", "critical"]),
                                         ("1", ["info", "warning", "error", "critical"]),
                                         ("3", ["error", "critical"]), ("4", ["critical"])])
def test_glog_v_sets_the_level(monkeypatch, capsys, glog, shown):
    monkeypatch.setenv("GLOG_v", glog)
    for name in ("debug", "info", "warning", "error", "critical"):
        getattr(log, name)(f"msg-{name}")
    err = capsys.readouterr().err
    assert [n for n in ("debug", "info", "warning", "error", "critical") if f"msg-{n}" in err] == shown
    assert log.get_level() == glog


def test_bad_level_is_an_error(monkeypatch):
    monkeypatch.setenv("GLOG_v", "7")
    with pytest.raises(ValueError, match="GLOG_v"):
        log.info("x")


def test_log_file(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("GLOG_logtostderr", "0")
    monkeypatch.setenv("GLOG_log_dir", str(tmp_path))
    monkeypatch.setenv("GLOG_stderrthreshold", "3")
    log.warning("to the file")
    log.error("to both")
    cfg = log.get_log_config()
    assert cfg["GLOG_logtostderr"] == "0" and cfg["GLOG_stderrthreshold"] == "3"
    assert cfg["GLOG_log_dir"] == os.path.join(str(tmp_path), "rank_0", "logs")
    (path,) = [os.path.join(cfg["GLOG_log_dir"], f) for f in os.listdir(cfg["GLOG_log_dir"])]
    log._reset()  # closes the file
    text = open(path).read()
    assert "to the file" in text and "to both" in text
    err = capsys.readouterr().err
    assert "to both" in err and "to the file" not in err


def test_file_mode_needs_a_directory(monkeypatch):
    monkeypatch.setenv("GLOG_logtostderr", "0")
    with pytest.raises(ValueError, match="GLOG_log_dir"):
        log.warning("x")
