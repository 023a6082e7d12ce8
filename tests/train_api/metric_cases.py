"""Metric cases run by MindSpore (tools/metrics_oracle.py -> fixtures/metrics.npz) and sprout
(test_metrics_oracle.py). A case: a key, a constructor, the updates (each a list of Python expressions over np, nn,
Tensor), and the eval keyword arguments."""

R = "np.random.default_rng({}).{}"
SCORES = "np.random.default_rng(1).standard_normal((6, 4)).astype(np.float32)"
LABELS = "np.array([0, 3, 1, 1, 2, 3], np.int32)"
ONEHOT = "np.eye(4, dtype=np.float32)[[0, 3, 1, 1, 2, 3]]"
ML_PRED = "np.array([[1, 0, 1], [0, 0, 1], [1, 1, 0], [0, 1, 1]], np.float32)"
ML_TRUE = "np.array([[1, 0, 0], [0, 1, 1], [1, 1, 0], [0, 0, 1]], np.float32)"
SEG_PRED = "(np.random.default_rng(4).random((2, 3, 4, 4)) > 0.5).astype(np.float32)"
SEG_TRUE = "(np.random.default_rng(5).random((2, 3, 4, 4)) > 0.5).astype(np.float32)"
MASK_A = "np.pad(np.ones((3, 4)), ((2, 3), (1, 2)))"
MASK_B = "np.pad(np.ones((4, 3)), ((1, 3), (3, 1)))"
MODEL = ("nn.SequentialCell([nn.Flatten(), nn.Dense(16, 3, weight_init=Tensor(np.cos(np.arange(48.0)).reshape(3, 16)"
         ".astype(np.float32)), bias_init=Tensor(np.zeros(3, np.float32)))])")
IMAGE = "np.sin(np.arange(16.0)).reshape(1, 1, 4, 4).astype(np.float32)"

CASES = [
    ("accuracy", "nn.Accuracy()", [[SCORES, LABELS], [SCORES + "[::-1]", LABELS]], {}),
    ("accuracy_multilabel", "nn.Accuracy('multilabel')", [[ML_PRED, ML_TRUE]], {}),
    ("precision", "nn.Precision()", [[SCORES, LABELS], [SCORES + " * -1", ONEHOT]], {}),
    ("precision_avg", "nn.Precision()", [[SCORES, LABELS]], {"average": True}),
    ("precision_multilabel", "nn.Precision('multilabel')", [[ML_PRED, ML_TRUE]], {}),
    ("precision_multilabel_avg", "nn.Precision('multilabel')", [[ML_PRED, ML_TRUE], [ML_TRUE, ML_PRED]],
     {"average": True}),
    ("recall", "nn.Recall()", [[SCORES, LABELS]], {}),
    ("recall_multilabel_avg", "nn.Recall('multilabel')", [[ML_PRED, ML_TRUE]], {"average": True}),
    ("f1", "nn.F1()", [[SCORES, LABELS]], {}),
    ("fbeta_avg", "nn.Fbeta(0.5)", [[SCORES, LABELS], [SCORES + " ** 2", LABELS]], {"average": True}),
    ("dice", "nn.Dice()", [[SEG_PRED, SEG_TRUE], [SEG_TRUE, SEG_TRUE]], {}),
    ("confusion_matrix", "nn.ConfusionMatrix(4)", [[SCORES, LABELS]], {}),
    ("confusion_matrix_target", "nn.ConfusionMatrix(4, 'target')", [[SCORES, LABELS]], {}),
    ("confusion_matrix_threshold_all", "nn.ConfusionMatrix(2, 'all', 0.3)",
     [["np.array([0.1, 0.4, 0.8, 0.2], np.float32)", "np.array([0, 1, 1, 1], np.int32)"]], {}),
    ("cm_metric_sensitivity", "nn.ConfusionMatrixMetric()", [[SEG_PRED, SEG_TRUE]], {}),
    ("cm_metric_mcc_noskip", "nn.ConfusionMatrixMetric(False, 'mcc')", [[SEG_PRED, SEG_TRUE]], {}),
    ("cm_metric_f1_calc_mean", "nn.ConfusionMatrixMetric(metric_name='f1 score', calculation_method=True)",
     [[SEG_PRED, SEG_TRUE], [SEG_TRUE, SEG_TRUE]], {}),
    ("cm_metric_pt_calc_sum", "nn.ConfusionMatrixMetric(metric_name='prevalence threshold', calculation_method=True, "
     "decrease='sum')", [[SEG_PRED, SEG_TRUE]], {}),
    ("cm_metric_ba_channel", "nn.ConfusionMatrixMetric(metric_name='balanced_accuracy', calculation_method=True, "
     "decrease='mean_channel')", [[SEG_PRED + "[:1]", SEG_TRUE + "[:1]"]], {}),
    ("roc_binary", "nn.ROC(pos_label=1)",
     [["np.array([0.1, 0.4, 0.35, 0.8, 0.4], np.float32)", "np.array([0, 0, 1, 1, 1], np.int32)"]], {}),
    ("bleu", "nn.BleuScore()", [[
        "[['the', 'cat', 'sat', 'on', 'the', 'mat'], ['a', 'dog', 'ran', 'in', 'the', 'park', 'today']]",
        "[[['the', 'cat', 'is', 'on', 'the', 'mat'], ['there', 'is', 'a', 'cat', 'on', 'the', 'mat']], "
        "[['a', 'dog', 'ran', 'in', 'the', 'big', 'park']]]"]], {}),
    ("bleu_smooth_bigram", "nn.BleuScore(2, True)", [[
        "[['hello', 'world', 'again']]", "[[['hello', 'there', 'world', 'again', 'now']]]"]], {}),
    ("cosine_similarity", "nn.CosineSimilarity()", [["np.random.default_rng(6).standard_normal((3, 4))"]], {}),
    ("cosine_dot_mean", "nn.CosineSimilarity('dot', 'mean', False)",
     [["np.random.default_rng(6).standard_normal((3, 4))"]], {}),
    ("perplexity", "nn.Perplexity()", [["np.random.default_rng(7).dirichlet(np.ones(4), 5)",
                                        "np.array([0, 3, 1, 2, 2])"]], {}),
    ("perplexity_ignore", "nn.Perplexity(ignore_label=2)", [["np.random.default_rng(7).dirichlet(np.ones(4), 5)",
                                                             "np.array([0, 3, 1, 2, 2])"]], {}),
    ("hausdorff", "nn.HausdorffDistance()", [[MASK_A, MASK_B, "1"]], {}),
    ("hausdorff_taxicab_directed_pct", "nn.HausdorffDistance('taxicab', 80.0, True, False)",
     [[MASK_A, MASK_B, "1"]], {}),
    ("mean_surface", "nn.MeanSurfaceDistance()", [[MASK_A, MASK_B, "1"]], {}),
    ("mean_surface_symmetric_chess", "nn.MeanSurfaceDistance(True, 'chessboard')", [[MASK_A, MASK_B, "1"]], {}),
    ("rms_distance", "nn.RootMeanSquareDistance()", [[MASK_A, MASK_B, "1"]], {}),
    ("rms_distance_symmetric", "nn.RootMeanSquareDistance(True)", [[MASK_A, MASK_B, "1"]], {}),
    ("occlusion", "nn.OcclusionSensitivity(margin=1, n_batch=5)", [[MODEL, IMAGE, "np.array(2)"]], {}),
    ("occlusion_box", "nn.OcclusionSensitivity(pad_val=1.0, b_box=[-1, -1, 1, 2, 0, 3])",
     [[MODEL, IMAGE, "np.array(1)"]], {}),
    ("mae", "nn.MAE()", [[SCORES, SCORES + " * 0.5"]], {}),
    ("top2", "nn.TopKCategoricalAccuracy(2)", [[SCORES, LABELS]], {}),
    ("auc_fn", "nn.auc", [["np.array([0.0, 0.2, 0.5, 1.0])", "np.array([0.0, 0.6, 0.7, 1.0])"]], None),
    ("auc_decreasing", "nn.auc", [["np.array([1.0, 0.5, 0.0])", "np.array([1.0, 0.4, 0.0])"]], None),
]

ERRORS = [
    ("fbeta_beta_zero", "nn.Fbeta(0)"),
    ("precision_bad_type", "nn.Precision('binary')"),
    ("precision_eval_empty", "nn.Precision().eval()"),
    ("precision_average_int", "m = nn.Precision(); m.update(np.eye(2), np.array([0, 1])); m.eval(average=1)"),
    ("recall_class_mismatch", "m = nn.Recall(); m.update(np.eye(2), np.array([0, 1])); m.update(np.eye(3), "
     "np.array([0, 1, 2]))"),
    ("dice_int_smooth", "nn.Dice(1)"),
    ("dice_shape", "nn.Dice().update(np.ones((2, 3)), np.ones((3, 2)))"),
    ("cm_bad_normalize", "nn.ConfusionMatrix(3, 'label')"),
    ("cm_float_classes", "nn.ConfusionMatrix(3.0)"),
    ("cm_int_threshold", "nn.ConfusionMatrix(3, threshold=1)"),
    ("cm_eval_first", "nn.ConfusionMatrix(3).eval()"),
    ("cmm_bad_decrease", "nn.ConfusionMatrixMetric(decrease='avg')"),
    ("cmm_bad_metric", "m = nn.ConfusionMatrixMetric(metric_name='nope'); m.update(np.ones((1, 2, 2)), "
     "np.ones((1, 2, 2))); m.eval()"),
    ("cmm_not_binary", "nn.ConfusionMatrixMetric().update(np.ones((1, 2, 2)), np.full((1, 2, 2), 0.5))"),
    ("roc_class_num_float", "nn.ROC(class_num=2.0)"),
    ("roc_no_negative", "m = nn.ROC(pos_label=1); m.update(np.array([0.1, 0.5]), np.array([1, 1])); m.eval()"),
    ("bleu_ngram", "nn.BleuScore(5)"),
    ("bleu_length", "nn.BleuScore().update([['a']], [])"),
    ("cosine_bad_reduction", "nn.CosineSimilarity(reduction='max')"),
    ("perplexity_float_ignore", "nn.Perplexity(ignore_label=1.0)"),
    ("hausdorff_bad_metric", "nn.HausdorffDistance('manhattan')"),
    ("hausdorff_missing_label", "nn.HausdorffDistance().update(np.zeros((3, 3)), np.zeros((3, 3)), 1)"),
    ("rms_str_label", "nn.RootMeanSquareDistance().update(np.ones((3, 3)), np.ones((3, 3)), 'a')"),
    ("occlusion_int_pad", "nn.OcclusionSensitivity(pad_val=0)"),
    ("occlusion_int_label", "nn.OcclusionSensitivity().update(" + MODEL + ", " + IMAGE + ", 1)"),
    ("auc_list", "nn.auc([0, 1], [0, 1])"),
    ("auc_unsorted", "nn.auc(np.array([0.0, 1.0, 0.5]), np.array([0.0, 1.0, 0.5]))"),
    ("metric_fn_unknown", "nn.get_metric_fn('nope')"),
]
