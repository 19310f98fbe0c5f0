"""Collins' structured perceptron for tagging sequences, with Viterbi decoding.

Each word of a sequence gets a tag. A tagging is scored by a start weight for its first tag, an
emission weight for each (word, tag) pair and a transition weight for each pair of consecutive
tags: a linear score ``v.Phi(x, t)`` of the counts ``Phi`` of those features. Viterbi's dynamic
programme finds the best-scoring tagging among the ``n_tags ** T`` of a sequence of length ``T``. The
perceptron's update is the multiclass one with tag sequences as the classes: on a mistake,
``v += Phi(x, gold) - Phi(x, predicted)`` (Collins 2002).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._validation import check_epochs, check_integer, check_sequences
from .results import StructuredResult


def viterbi(emission: ArrayLike, transition: ArrayLike, start: ArrayLike) -> NDArray[np.intp]:
    """The best-scoring tag sequence, by dynamic programming over the positions.

    Parameters
    ----------
    emission : array_like of shape (T, n_tags)
        Score of each tag at each position (for a tagger: the emission weights of the words).
    transition : array_like of shape (n_tags, n_tags)
        Score of tag ``b`` following tag ``a`` at ``[a, b]``.
    start : array_like of shape (n_tags,)
        Score of each tag at the first position.

    Returns
    -------
    ndarray of shape (T,)
        The tags maximising ``start[t_1] + sum_j emission[j, t_j] + sum_j transition[t_(j-1), t_j]``;
        among equal scores, the one whose tags are earliest, read from the end.

    Raises
    ------
    ValueError
        When the shapes do not match or a score is not finite.

    Examples
    --------
    >>> viterbi([[1.0, 0.0], [0.0, 0.5]], [[0.0, 1.0], [0.0, 0.0]], [0.0, 0.0]).tolist()
    [0, 1]
    """
    E, A, s = (np.asarray(a, dtype=np.float64) for a in (emission, transition, start))
    if E.ndim != 2 or E.shape[0] == 0 or A.shape != (E.shape[1], E.shape[1]) or s.shape != (E.shape[1],):
        raise ValueError(
            f"viterbi needs emission (T, K), transition (K, K) and start (K,); got shapes {E.shape}, {A.shape}, {s.shape}"
        )
    if not (np.isfinite(E).all() and np.isfinite(A).all() and np.isfinite(s).all()):
        raise ValueError("viterbi's scores must be finite")
    return _viterbi(E, A, s)


def _viterbi(E: NDArray[np.float64], A: NDArray[np.float64], s: NDArray[np.float64]) -> NDArray[np.intp]:
    best = s + E[0]  # best[k]: the best score of a prefix ending in tag k
    back = np.zeros(E.shape, dtype=np.intp)
    for j in range(1, len(E)):
        candidates = best[:, None] + A  # [previous tag, tag]
        back[j] = np.argmax(candidates, axis=0)
        best = candidates[back[j], np.arange(E.shape[1])] + E[j]
    path = np.zeros(len(E), dtype=np.intp)
    path[-1] = np.argmax(best)
    for j in range(len(E) - 1, 0, -1):
        path[j - 1] = back[j, path[j]]
    return path


def structured_train(
    sequences: Sequence[ArrayLike],
    tags: Sequence[ArrayLike],
    *,
    n_words: int,
    n_tags: int,
    max_epochs: int = 100,
) -> StructuredResult:
    """Train Collins' structured perceptron on tagged sequences, visited in the given order.

    Parameters
    ----------
    sequences : sequence of array_like of int
        Each a sequence of word ids in ``0 .. n_words - 1``, non-empty.
    tags : sequence of array_like of int
        The gold tags, each sequence as long as its words, ids in ``0 .. n_tags - 1``.
    n_words, n_tags : int
        Sizes of the vocabulary (>= 1) and of the tag set (>= 2).
    max_epochs : int, default 100
        Largest number of passes, >= 1.

    Returns
    -------
    StructuredResult
        The weights, ``mistakes``, ``epochs`` and ``converged``.

    Raises
    ------
    ValueError
        On sequences and tags of different numbers or lengths, ids out of range, or bad sizes.

    References
    ----------
    .. [1] M. Collins, "Discriminative training methods for hidden Markov models: theory and
       experiments with perceptron algorithms", EMNLP 2002.

    Examples
    --------
    Word 1 is tag 1 after word 0 and tag 0 after word 2; only the transitions can tell:

    >>> result = structured_train([[0, 1], [2, 1]], [[0, 1], [1, 0]], n_words=3, n_tags=2)
    >>> result.converged, [structured_predict(result, s).tolist() for s in ([0, 1], [2, 1])]
    (True, [[0, 1], [1, 0]])
    """
    n_words, n_tags = check_integer(n_words, "n_words", 1), check_integer(n_tags, "n_tags", 2)
    words, gold = check_sequences(sequences, tags, n_words, n_tags)
    max_epochs = check_epochs(max_epochs)
    emission, transition, start = np.zeros((n_words, n_tags)), np.zeros((n_tags, n_tags)), np.zeros(n_tags)
    mistakes, epoch, clean = 0, 0, False
    while epoch < max_epochs and not clean:
        epoch += 1
        clean = True
        for x, t in zip(words, gold):
            guess = _viterbi(emission[x], transition, start)
            if np.array_equal(guess, t):
                continue
            for path, sign in ((t, 1.0), (guess, -1.0)):  # v += Phi(x, gold) - Phi(x, guess)
                start[path[0]] += sign
                np.add.at(emission, (x, path), sign)
                np.add.at(transition, (path[:-1], path[1:]), sign)
            mistakes += 1
            clean = False
    return StructuredResult(emission, transition, start, mistakes, epoch, clean)


def structured_predict(result: StructuredResult, words: ArrayLike) -> NDArray[np.intp]:
    """Tag a sequence of word ids with the trained weights (Viterbi).

    Examples
    --------
    >>> result = structured_train([[0, 1]], [[1, 0]], n_words=2, n_tags=2)
    >>> structured_predict(result, [0, 1]).tolist()
    [1, 0]
    """
    (x,), _ = check_sequences([words], [np.zeros(np.size(words), dtype=int)], result.emission.shape[0], 2)
    return _viterbi(result.emission[x], result.transition, result.start)
