"""nn layers, one module per family."""
from .activation import (ReLU, ReLU6, Sigmoid, Tanh, GELU, FastGelu, SiLU, LeakyReLU, ELU, Softplus,  # noqa: F401
                         Softmax, LogSoftmax, HSwish, HSigmoid, Mish, LogSigmoid, Softsign, get_activation)
from .activation_ext import (CELU, SeLU, Softmin, Softmax2d, Hardtanh, Tanhshrink, HShrink, SoftShrink,  # noqa: F401
                             Threshold, GLU, PReLU, RReLU, LRN)
from .basic import Dense, Flatten, Dropout, Identity  # noqa: F401
from .basic_ext import (Linear, ClipByNorm, Norm, OneHot, Unfold, Tril, Triu, MatrixDiag, MatrixDiagPart,  # noqa: F401
                        MatrixSetDiag, Roll, Unflatten, L1Regularizer, Dropout1d, Dropout2d, Dropout3d, Upsample)
from .container import SequentialCell, CellList, CellDict  # noqa: F401
from .image import ImageGradients, PSNR, SSIM, MSSSIM, CentralCrop, PixelShuffle, PixelUnshuffle  # noqa: F401
from .math_ext import ReduceLogSumExp, Range, MatMul, Moments  # noqa: F401
from .conv import Conv1d, Conv2d, Conv3d  # noqa: F401
from .conv_transpose import Conv1dTranspose, Conv2dTranspose, Conv3dTranspose  # noqa: F401
from .embedding import Embedding  # noqa: F401
from .pooling import MaxPool1d, MaxPool2d, MaxPool3d, AvgPool1d, AvgPool2d, AvgPool3d  # noqa: F401
from .adaptive_pool import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d, AdaptiveMaxPool1d,  # noqa: F401
                            AdaptiveMaxPool2d, AdaptiveMaxPool3d)
from .padding import (Pad, ConstantPad1d, ConstantPad2d, ConstantPad3d, ZeroPad2d, ReflectionPad1d,  # noqa: F401
                      ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d, ReplicationPad3d)
from .normalization import (BatchNorm1d, BatchNorm2d, BatchNorm3d, LayerNorm, GroupNorm, SyncBatchNorm,  # noqa: F401
                            InstanceNorm1d, InstanceNorm2d, InstanceNorm3d)
from .combined import Conv2dBnAct, DenseBnAct  # noqa: F401
from .rnn_cells import RNNCell, LSTMCell, GRUCell  # noqa: F401
from .rnns import RNN, LSTM, GRU  # noqa: F401
from .transformer import (MultiheadAttention, TransformerEncoderLayer, TransformerDecoderLayer,  # noqa: F401
                          TransformerEncoder, TransformerDecoder, Transformer)
from .math_cells import LGamma, DiGamma, IGamma, LBeta, MatDet, MatInverse  # noqa: F401
from .pooling_extra import (LPPool1d, LPPool2d, MaxUnpool1d, MaxUnpool2d, MaxUnpool3d,  # noqa: F401
                            FractionalMaxPool2d, FractionalMaxPool3d, ChannelShuffle)
from .dense_extra import BiDense, TimeDistributed, EmbeddingLookup, MultiFieldEmbeddingLookup  # noqa: F401
from ..sparse import SparseToDense, SparseTensorDenseMatmul  # noqa: F401
