"""perceptron: the reference algorithms of the course module on linear classifiers.

Every chapter of the book imports this package. Labels are -1/+1; sgn(0) = +1; a training
mistake is ``y (w.x + b) <= 0``. See the book's notation page for every convention.
"""

from . import datasets, losses, plotting, widgets
from .bounds import mistake_bound
from .linear import decision_function, predict, prototype
from .losses import (SGDResult, hinge_loss, logistic_loss, loss_slope, loss_subgradient, perceptron_criterion,
                     perceptron_loss, total_loss, train_sgd)
from .margins import MaxMargin, functional_margins, geometric_margin, max_margin, radius
from .proof import ProofQuantities, proof_quantities
from .results import TrainResult, Update
from .training import train

__version__ = "0.1.0"

__all__ = [
    "MaxMargin",
    "ProofQuantities",
    "SGDResult",
    "TrainResult",
    "Update",
    "datasets",
    "losses",
    "plotting",
    "widgets",
    "decision_function",
    "functional_margins",
    "geometric_margin",
    "hinge_loss",
    "logistic_loss",
    "loss_slope",
    "loss_subgradient",
    "max_margin",
    "mistake_bound",
    "perceptron_criterion",
    "perceptron_loss",
    "predict",
    "proof_quantities",
    "prototype",
    "radius",
    "total_loss",
    "train",
    "train_sgd",
]
