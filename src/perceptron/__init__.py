"""perceptron: the reference algorithms of the course module on linear classifiers.

Every chapter of the book imports this package. Labels are -1/+1; sgn(0) = +1; a training
mistake is ``y (w.x + b) <= 0`` (``train(..., rule="sign")`` uses ``y != sgn(w.x + b)`` instead).
See the book's notation page for every convention.

Layout: ``_validation`` (argument checks) and ``_core`` (what every training loop shares) sit below
everything; the result types live in ``results``; each algorithm has its own module above them
(``training`` with ``fast_training``, ``pocket``, ``averaged``, ``kernel``, ``sgd``, ``proof``,
``multiclass``, ``structured``, ``network``, ``regret``, ``experts``, ``winnow``, ...); ``plotting``,
``proof_plots``, ``multiclass_plots``, ``widgets`` and ``sliders`` draw, and load on first use. Imports run one way.
"""

from . import datasets, losses
from ._version import __version__ as __version__
from .averaged import VotedPerceptron, averaged, voted
from .bounds import mistake_bound
from .checks import holds_for
from .experts import (
    ClassRun,
    ExpertsRun,
    halving,
    littlestone_dimension,
    soa,
    thresholds,
    weighted_majority,
    weighted_majority_bound,
)
from .halfspaces import radon_partition, separating_hyperplane, shatters
from .kernel import KernelPerceptron, kernel_predict, kernel_train
from .linear import count_errors, decision_function, predict, prototype
from .losses import (
    hinge_loss,
    logistic_loss,
    loss_slope,
    loss_subgradient,
    perceptron_criterion,
    perceptron_loss,
    total_loss,
)
from .margins import functional_margins, geometric_margin, max_margin, moved_errors, radius, svm_dual
from .multiclass import (
    kesler_points,
    kesler_train,
    multiclass_hinge_bound,
    multiclass_margin,
    multiclass_mistake_bound,
    multiclass_train,
)
from .network import (
    init_network,
    network_gradient,
    network_gradient_check,
    network_loss,
    train_lms,
    train_network,
)
from .nonseparable import choose_epochs, fewest_errors_line, find_cycle, weights_at_epoch_ends
from .online import (
    adversary_sequence,
    held_out_bound,
    hinge_mistake_bound,
    online_pass,
    online_to_batch_bound,
    perceptron_learner,
    tightest_hinge_bound,
)
from .pocket import pocket
from .proof import proof_quantities
from .regret import OGDRun, online_gradient_descent, perceptron_regret_bound
from .results import (
    AdversaryRun,
    BestLine,
    Cycle,
    HingeBound,
    Hyperplane,
    MaxMargin,
    MulticlassResult,
    MulticlassUpdate,
    NetworkRun,
    OnlinePass,
    ProofQuantities,
    SGDResult,
    StructuredResult,
    TrainResult,
    TwoLayerNetwork,
    Update,
)
from .sgd import train_sgd
from .structured import structured_predict, structured_train, viterbi
from .training import train
from .winnow import WinnowRun, disjunction_data, winnow, winnow_mistake_bound


def __getattr__(name: str):
    """Import the heavy parts on first use: the scikit-learn estimator (scikit-learn takes a second
    or more to load) and the matplotlib-based ``plotting``, ``proof_plots``, ``multiclass_plots``
    ``widgets`` and ``sliders`` modules, so that a grading kernel or a test process that never draws does not pay for them."""
    if name == "Perceptron":
        from .estimator import Perceptron

        return Perceptron
    if name in ("plotting", "proof_plots", "multiclass_plots", "widgets", "sliders"):
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'perceptron' has no attribute {name!r}")


__all__ = [
    "AdversaryRun",
    "BestLine",
    "ClassRun",
    "Cycle",
    "ExpertsRun",
    "HingeBound",
    "Hyperplane",
    "KernelPerceptron",
    "MaxMargin",
    "MulticlassResult",
    "MulticlassUpdate",
    "NetworkRun",
    "OGDRun",
    "OnlinePass",
    "Perceptron",
    "ProofQuantities",
    "SGDResult",
    "StructuredResult",
    "TrainResult",
    "TwoLayerNetwork",
    "Update",
    "VotedPerceptron",
    "WinnowRun",
    "adversary_sequence",
    "averaged",
    "choose_epochs",
    "count_errors",
    "datasets",
    "decision_function",
    "disjunction_data",
    "fewest_errors_line",
    "find_cycle",
    "functional_margins",
    "geometric_margin",
    "halving",
    "held_out_bound",
    "hinge_loss",
    "hinge_mistake_bound",
    "holds_for",
    "init_network",
    "kernel_predict",
    "kernel_train",
    "kesler_points",
    "kesler_train",
    "littlestone_dimension",
    "logistic_loss",
    "loss_slope",
    "loss_subgradient",
    "losses",
    "max_margin",
    "mistake_bound",
    "moved_errors",
    "multiclass_hinge_bound",
    "multiclass_margin",
    "multiclass_mistake_bound",
    "multiclass_plots",
    "multiclass_train",
    "network_gradient",
    "network_gradient_check",
    "network_loss",
    "online_gradient_descent",
    "online_pass",
    "online_to_batch_bound",
    "perceptron_criterion",
    "perceptron_learner",
    "perceptron_loss",
    "perceptron_regret_bound",
    "plotting",
    "pocket",
    "predict",
    "proof_plots",
    "proof_quantities",
    "prototype",
    "radius",
    "radon_partition",
    "separating_hyperplane",
    "shatters",
    "sliders",
    "soa",
    "structured_predict",
    "structured_train",
    "svm_dual",
    "thresholds",
    "tightest_hinge_bound",
    "total_loss",
    "train",
    "train_lms",
    "train_network",
    "train_sgd",
    "viterbi",
    "voted",
    "weighted_majority",
    "weighted_majority_bound",
    "weights_at_epoch_ends",
    "widgets",
    "winnow",
    "winnow_mistake_bound",
]
