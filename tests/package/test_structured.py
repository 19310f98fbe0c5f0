"""structured: Viterbi decoding and Collins' structured perceptron."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron import structured_predict, structured_train, viterbi


def brute_force(E, A, s):
    """The best score over all taggings, tried one by one (Viterbi may break a tie for another
    tagging of the same score, so the tests compare scores)."""
    best, arg = -np.inf, None
    for path in itertools.product(range(E.shape[1]), repeat=len(E)):
        score = s[path[0]] + sum(E[j, t] for j, t in enumerate(path)) + sum(A[a, b] for a, b in itertools.pairwise(path))
        if score > best:
            best, arg = score, path
    return best, arg


def score(E, A, s, path):
    return s[path[0]] + E[np.arange(len(path)), path].sum() + A[path[:-1], path[1:]].sum()


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 5), st.integers(2, 3))
def test_viterbi_finds_a_best_scoring_tagging(seed, length, n_tags):
    rng = np.random.default_rng(seed)
    E, A, s = rng.normal(size=(length, n_tags)), rng.normal(size=(n_tags, n_tags)), rng.normal(size=n_tags)
    path = viterbi(E, A, s)
    best, _ = brute_force(E, A, s)
    assert path.shape == (length,) and np.isclose(score(E, A, s, path), best)


def toy_task():
    """'the fish swim' / 'they fish': the word fish is a noun after 'the', a verb after 'they'."""
    words = {"the": 0, "fish": 1, "swim": 2, "they": 3}
    tags = {"D": 0, "N": 1, "V": 2}
    sentences = [["the", "fish", "swim"], ["they", "fish"], ["the", "fish"], ["they", "swim"]]
    gold = [["D", "N", "V"], ["N", "V"], ["D", "N"], ["N", "V"]]
    return ([np.array([words[w] for w in s]) for s in sentences], [np.array([tags[t] for t in g]) for g in gold])


def test_structured_perceptron_learns_what_only_the_transitions_tell():
    X, T = toy_task()
    result = structured_train(X, T, n_words=4, n_tags=3)
    assert result.converged and result.mistakes > 0
    for x, t in zip(X, T):
        assert structured_predict(result, x).tolist() == t.tolist()
    # One weight per (word, tag) cannot: "fish" is N once and V once with nothing else to go on.
    assert result.transition[0, 1] > result.transition[0, 2]       # after D, N rather than V


def test_a_clean_pass_leaves_the_weights_and_one_epoch_is_counted():
    result = structured_train([[0]], [[0]], n_words=1, n_tags=2)
    assert (result.mistakes, result.epochs, result.converged) == (0, 1, True)
    assert not result.emission.any()


def test_not_converging_stops_at_max_epochs():
    # The same word sequence with two different gold taggings: every pass makes a mistake.
    result = structured_train([[0], [0]], [[0], [1]], n_words=1, n_tags=2, max_epochs=5)
    assert not result.converged and result.epochs == 5 and result.mistakes >= 5


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([[0, 1]], [[0]]), "has 2 words but 1 tags"),
        (([[0, 5]], [[0, 1]]), "word ids must lie in 0..3"),
        (([[0]], [[2]]), "tag ids must lie in 0..1"),
        (([[0]], [[0], [1]]), "1 sequences but 2"),
        (([[]], [[]]), "non-empty"),
        (([[0.5]], [[0]]), "integers"),
    ],
)
def test_bad_sequences_are_refused(args, message):
    with pytest.raises(ValueError, match=message):
        structured_train(*args, n_words=4, n_tags=2)


def test_viterbi_refuses_mismatched_shapes():
    with pytest.raises(ValueError, match="shapes"):
        viterbi(np.zeros((3, 2)), np.zeros((3, 3)), np.zeros(2))
