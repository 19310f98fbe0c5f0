"""perceptron: the reference algorithms of the course module on linear classifiers.

Every chapter of the book imports this package. Labels are -1/+1; sgn(0) = +1; a training
mistake is ``y (w.x + b) <= 0``. See the book's notation page for every convention.
"""

from . import datasets, plotting, widgets
from .bounds import mistake_bound
from .linear import decision_function, predict, prototype
from .margins import MaxMargin, functional_margins, geometric_margin, max_margin, radius
from .results import TrainResult, Update
from .training import train

__version__ = "0.1.0"

__all__ = [
    "MaxMargin",
    "TrainResult",
    "Update",
    "datasets",
    "plotting",
    "widgets",
    "decision_function",
    "functional_margins",
    "geometric_margin",
    "max_margin",
    "mistake_bound",
    "predict",
    "prototype",
    "radius",
    "train",
]
