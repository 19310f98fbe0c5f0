"""Tests of the perceptron package: one file per module of src/perceptron, the import structure and
the compiled training pass. `make test-oldest` runs this folder alone, against the oldest versions."""
