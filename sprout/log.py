"""``mindspore.log``: a process-wide logger over Python's ``logging``, configured from MindSpore's GLOG_* variables."""
from __future__ import annotations

import logging
import logging.handlers
import os
import sys
import threading
import time

__all__ = ["debug", "info", "warning", "error", "critical", "get_level", "get_log_config"]

# MindSpore's environment interface (read once, at the first log call, as MindSpore does):
#   GLOG_v                 level of the logger: 0 DEBUG, 1 INFO, 2 WARNING (default), 3 ERROR, 4 CRITICAL
#   GLOG_logtostderr       1 (default): log to stderr; 0: log to a rotating file under GLOG_log_dir
#   GLOG_log_dir           directory of the log file (required when GLOG_logtostderr=0)
#   GLOG_stderrthreshold   with a log file, records at this level and above also go to stderr (default 2)
#   logger_maxBytes        size at which the log file rotates (default 50 MiB)
#   logger_backupCount     rotated files kept (default 30)
ENV_NAMES = {"level": "GLOG_v", "console": "GLOG_logtostderr", "filepath": "GLOG_log_dir",
             "maxBytes": "logger_maxBytes", "backupCount": "logger_backupCount",
             "stderr_level": "GLOG_stderrthreshold"}
_GLOG_TO_LEVEL = {"0": logging.DEBUG, "1": logging.INFO, "2": logging.WARNING, "3": logging.ERROR,
                  "4": logging.CRITICAL}
_LEVEL_TO_GLOG = {v: k for k, v in _GLOG_TO_LEVEL.items()}
_DEFAULT_MAX_BYTES = 50 * 1024 * 1024
_DEFAULT_BACKUPS = 30
_FORMAT = "[%(levelname)s] %(sub_module)s(%(process)d:%(thread)d,%(processName)s):%(asctime)s " \
          "[%(filepath)s:%(lineno)d] %(message)s"

_lock = threading.Lock()
_logger: logging.Logger | None = None


class _Formatter(logging.Formatter):
    """MindSpore's line layout: level, sub-module, pid:thread, time with microseconds, caller file:line."""

    def formatTime(self, record, datefmt=None):
        stamp = time.strftime("%Y-%m-%d-%H:%M:%S", self.converter(record.created))
        micros = f"{int(record.msecs * 1000):06d}"
        return f"{stamp}.{micros[:3]}.{micros[3:]}"

    def format(self, record):
        record.sub_module = "ME"
        path = record.pathname
        cut = path.rfind("sprout" + os.sep)
        record.filepath = path[cut:] if cut >= 0 else path
        return super().format(record)


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is at the time of the record (so redirections and test capture work)."""

    def __init__(self):
        super().__init__(sys.stderr)
        self.name = "StreamHandler"

    @property
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value):
        pass


def _env_config() -> dict:
    out = {}
    for key, env in ENV_NAMES.items():
        value = os.environ.get(env)
        if value is not None and value.strip():
            out[key] = value.strip()
    return out


def _check_level(name: str, value: str) -> int:
    if value not in _GLOG_TO_LEVEL:
        raise ValueError(f"Incorrect log level, please check the configuration of {name}, desired log level: "
                         f"4-CRITICAL, 3-ERROR, 2-WARNING, 1-INFO, 0-DEBUG. But got {value}.")
    return _GLOG_TO_LEVEL[value]


def _check_count(name: str, value: str) -> int:
    if not value.isdigit():
        raise ValueError(f"Incorrect value, the value of {name} must be a positive integer, but got {value}.")
    return int(value)


def _rank_id() -> str:
    for env in ("RANK_ID", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "MS_NODE_ID"):
        if os.environ.get(env):
            return os.environ[env]
    return "0"


def _build(cfg: dict) -> logging.Logger:
    level = _check_level(ENV_NAMES["level"], cfg.get("level", "2"))
    stderr_level = _check_level(ENV_NAMES["stderr_level"], cfg.get("stderr_level", "2"))
    console = cfg.get("console", "1")
    if console not in ("0", "1"):
        raise ValueError(f"Incorrect value, the value of {ENV_NAMES['console']} must be 0 or 1, but got {console}.")
    logger = logging.getLogger(f"sprout.log.{os.getpid()}")
    logger.setLevel(level)
    logger.propagate = False  # its own handlers only, as MindSpore's logger
    for h in list(logger.handlers):
        logger.removeHandler(h)
    fmt = _Formatter(_FORMAT)
    stderr = _StderrHandler()
    stderr.setFormatter(fmt)
    if console == "0":
        if "filepath" not in cfg:
            raise ValueError(f"When {ENV_NAMES['console']} is set to 0, the directory of saving log "
                             f"{ENV_NAMES['filepath']} must be set, but got it empty.")
        max_bytes = _check_count(ENV_NAMES["maxBytes"], cfg.get("maxBytes", str(_DEFAULT_MAX_BYTES)))
        backups = _check_count(ENV_NAMES["backupCount"], cfg.get("backupCount", str(_DEFAULT_BACKUPS)))
        log_dir = os.path.join(os.path.realpath(cfg["filepath"]), f"rank_{_rank_id()}", "logs")
        os.makedirs(log_dir, mode=0o700, exist_ok=True)
        path = os.path.join(log_dir, f"sprout.log.{os.getpid()}")
        to_file = logging.handlers.RotatingFileHandler(path, maxBytes=max_bytes, backupCount=backups,
                                                       encoding="utf-8")
        to_file.name = "FileHandler"
        to_file.setFormatter(fmt)
        logger.addHandler(to_file)
        stderr.setLevel(stderr_level)
    logger.addHandler(stderr)
    return logger


def _get_logger() -> logging.Logger:
    global _logger
    if _logger is None:
        with _lock:
            if _logger is None:
                _logger = _build(_env_config())
    return _logger


def _reset() -> None:
    """Forget the configured logger: the next call reads the environment again (tests use this)."""
    global _logger
    with _lock:
        if _logger is not None:
            for h in list(_logger.handlers):
                _logger.removeHandler(h)
                h.close()
        _logger = None


def debug(msg, *args, **kwargs) -> None:
    """Log ``msg % args`` at DEBUG level (shown with GLOG_v=0)."""
    _get_logger().debug(msg, *args, stacklevel=2, **kwargs)


def info(msg, *args, **kwargs) -> None:
    """Log ``msg % args`` at INFO level (shown with GLOG_v<=1)."""
    _get_logger().info(msg, *args, stacklevel=2, **kwargs)


def warning(msg, *args, **kwargs) -> None:
    """Log ``msg % args`` at WARNING level (the default threshold)."""
    _get_logger().warning(msg, *args, stacklevel=2, **kwargs)


def error(msg, *args, **kwargs) -> None:
    """Log ``msg % args`` at ERROR level."""
    _get_logger().error(msg, *args, stacklevel=2, **kwargs)


def critical(msg, *args, **kwargs) -> None:
    """Log ``msg % args`` at CRITICAL level."""
    _get_logger().critical(msg, *args, stacklevel=2, **kwargs)


def get_level() -> str:
    """The logger's level as MindSpore's GLOG_v digit: '0' DEBUG ... '4' CRITICAL."""
    return _LEVEL_TO_GLOG[_get_logger().getEffectiveLevel()]


def get_log_config() -> dict:
    """The configuration in effect, keyed by MindSpore's environment variable names."""
    logger = _get_logger()
    out = {"GLOG_v": get_level(), "GLOG_logtostderr": "1"}
    to_file = next((h for h in logger.handlers if h.name == "FileHandler"), None)
    if to_file is not None:
        stderr = next(h for h in logger.handlers if h.name == "StreamHandler")
        out.update(GLOG_logtostderr="0", GLOG_log_dir=os.path.dirname(to_file.baseFilename),
                   logger_maxBytes=to_file.maxBytes, logger_backupCount=to_file.backupCount,
                   GLOG_stderrthreshold=_LEVEL_TO_GLOG[stderr.level])
    return out
