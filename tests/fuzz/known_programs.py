"""Failing seeds of the default program fuzz run (seeds 0-199) and their failure keys: the open
findings (notes/fuzz-findings.md). After a fix lands, regenerate with
``python -m tests.fuzz --count 200 --write-known tests/fuzz/known_programs.py``; a seed that now
passes is reported by the test, a new failure fails it."""
KNOWN = {
    0: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    2: {
        ('fwd', 'bytecode', 'disagree', 'value', ''),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    3: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    4: {
        ('fwd', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    5: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    7: {
        ('fwd', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    8: {
        ('fwd', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    9: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    10: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    11: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    13: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    14: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    15: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    16: {
        ('grad_of_jit', 'ast', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'disagree', 'value', ''),
        ('jit_of_grad', 'bytecode', 'disagree', 'value', ''),
    },
    18: {
        ('grad_of_jit', 'ast', 'crash', 'KeyError', 'KeyError: N'),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    19: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    20: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    21: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    22: {
        ('grad_of_jit', 'ast', 'disagree', 'value', ''),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'disagree', 'value', ''),
        ('jit_of_grad', 'bytecode', 'disagree', 'value', ''),
    },
    23: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    25: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    26: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    29: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    30: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    31: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    32: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    34: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    35: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    36: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    37: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    38: {
        ('grad_of_jit', 'ast', 'disagree', 'value', ''),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'disagree', 'value', ''),
        ('jit_of_grad', 'bytecode', 'disagree', 'value', ''),
    },
    39: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    40: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    43: {
        ('fwd', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    44: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    45: {
        ('fwd', 'ast', 'disagree', 'value', ''),
        ('fwd', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    47: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    48: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    49: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    50: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    51: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    52: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    54: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    56: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    57: {
        ('grad_of_jit', 'ast', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    58: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    59: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    60: {
        ('grad_of_jit', 'ast', 'disagree', 'shape', ''),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    61: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    62: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    65: {
        ('grad_of_jit', 'ast', 'crash', 'KeyError', 'KeyError: N'),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    66: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    67: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    70: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    71: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    72: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    73: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('jit_of_grad', 'bytecode', 'crash', 'KeyError', 'KeyError: N'),
    },
    74: {
        ('fwd', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    75: {
        ('fwd', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    76: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    77: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    78: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    79: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    80: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    82: {
        ('grad_of_jit', 'ast', 'disagree', 'value', ''),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    83: {
        ('grad_of_jit', 'ast', 'crash', 'KeyError', 'KeyError: N'),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    84: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    85: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    86: {
        ('fwd', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    87: {
        ('grad_of_jit', 'ast', 'crash', 'KeyError', 'KeyError: N'),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    88: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    90: {
        ('grad_of_jit', 'ast', 'disagree', 'value', ''),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    91: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    94: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    95: {
        ('grad_of_jit', 'ast', 'disagree', 'value', ''),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    96: {
        ('fwd', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    97: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    98: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    99: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    101: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    102: {
        ('fwd', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    103: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    104: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    106: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    107: {
        ('fwd', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    108: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    109: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    110: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    111: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    112: {
        ('fwd', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    113: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    114: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    115: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    117: {
        ('fwd', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    118: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    119: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    120: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    121: {
        ('grad_of_jit', 'ast', 'crash', 'KeyError', 'KeyError: N'),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    122: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    123: {
        ('grad_of_jit', 'ast', 'disagree', 'value', ''),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    124: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    125: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    126: {
        ('fwd', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('fwd', 'bytecode', 'crash', 'KeyError', 'KeyError: N'),
        ('grad_of_jit', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'bytecode', 'crash', 'KeyError', 'KeyError: N'),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('jit_of_grad', 'bytecode', 'crash', 'KeyError', 'KeyError: N'),
    },
    127: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    128: {
        ('fwd', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    129: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    130: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    131: {
        ('grad_of_jit', 'ast', 'disagree', 'value', ''),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    132: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    133: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    134: {
        ('fwd', 'ast', 'disagree', 'value', ''),
        ('fwd', 'bytecode', 'disagree', 'value', ''),
        ('grad_of_jit', 'ast', 'crash', 'KeyError', 'KeyError: N'),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    136: {
        ('grad_of_jit', 'ast', 'disagree', 'value', ''),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    137: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    138: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    140: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    141: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    142: {
        ('fwd', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('fwd', 'bytecode', 'crash', 'IndexError', 'IndexError: tuple index out'),
        ('grad_of_jit', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'bytecode', 'crash', 'IndexError', 'IndexError: tuple index out'),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    143: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    144: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    145: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    146: {
        ('fwd', 'ast', 'refused', 'JitSyntaxError', 'JitSyntaxError: an in-place update'),
        ('grad_of_jit', 'ast', 'refused', 'JitSyntaxError', 'JitSyntaxError: an in-place update'),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    147: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    148: {
        ('fwd', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('jit_of_grad', 'bytecode', 'crash', 'KeyError', 'KeyError: N'),
    },
    149: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    150: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    151: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    152: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    154: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    155: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    156: {
        ('fwd', 'ast', 'crash', 'KeyError', 'KeyError: N'),
        ('grad_of_jit', 'ast', 'crash', 'KeyError', 'KeyError: N'),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    157: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    159: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    160: {
        ('grad_of_jit', 'ast', 'crash', 'KeyError', 'KeyError: N'),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    161: {
        ('fwd', 'ast', 'disagree', 'value', ''),
        ('grad_of_jit', 'ast', 'disagree', 'value', ''),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    162: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    163: {
        ('grad_of_jit', 'ast', 'disagree', 'value', ''),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'disagree', 'value', ''),
        ('jit_of_grad', 'bytecode', 'disagree', 'value', ''),
    },
    164: {
        ('grad_of_jit', 'ast', 'disagree', 'value', ''),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    165: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    166: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    168: {
        ('fwd', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    169: {
        ('fwd', 'ast', 'crash', 'GraphRuntimeError', 'GraphRuntimeError: Cond (node N'),
        ('fwd', 'bytecode', 'crash', 'ValueError', 'ValueError: matmul: Input operand'),
        ('grad_of_jit', 'ast', 'crash', 'GraphRuntimeError', 'GraphRuntimeError: Cond (node N'),
        ('grad_of_jit', 'bytecode', 'crash', 'ValueError', 'ValueError: matmul: Input operand'),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    171: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    172: {
        ('fwd', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('grad_of_jit', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    173: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    174: {
        ('grad_of_jit', 'ast', 'disagree', 'value', ''),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
        ('jit_of_grad', 'bytecode', 'crash', 'KeyError', 'KeyError: N'),
    },
    176: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    178: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    179: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    180: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    181: {
        ('grad_of_jit', 'ast', 'disagree', 'value', ''),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    182: {
        ('fwd', 'ast', 'disagree', 'value', ''),
        ('grad_of_jit', 'ast', 'disagree', 'value', ''),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    183: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    184: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    185: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    187: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    188: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    189: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
    },
    190: {
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    192: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    193: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    194: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    196: {
        ('fwd', 'ast', 'disagree', 'value', ''),
        ('fwd', 'bytecode', 'disagree', 'value', ''),
        ('grad_of_jit', 'ast', 'disagree', 'value', ''),
        ('grad_of_jit', 'bytecode', 'disagree', 'value', ''),
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    197: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
    198: {
        ('jit_of_grad', 'ast', 'refused', 'JitValueError', 'JitValueError: using a tensor'),
    },
}
