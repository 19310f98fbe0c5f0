"""perceptron_homework: build the course's homework with otter-grader and grade it safely.

Every submission runs in a bubblewrap sandbox (:mod:`perceptron_homework.sandbox`) and only
hands back the *outputs* of the student's functions on the test inputs, as plain data
(:mod:`perceptron_homework.plain`); whether a test passes is decided afterwards, in the
grading process, which never runs the student's code (:mod:`perceptron_homework.checks`).

The command-line tool is ``perceptron-homework`` (or ``python -m perceptron_homework``);
building needs the ``homework`` extra (otter-grader), grading does not.
"""

__version__ = "0.1.0"
