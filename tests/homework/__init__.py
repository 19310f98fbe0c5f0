"""The homework grader (src/perceptron_homework): build, sandbox, grading."""
