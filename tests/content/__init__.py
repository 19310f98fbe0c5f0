"""Checks of what the chapters and book pages say: numbers in the prose, solutions, exercise levels,
figure descriptions, question banks, the course plan, the R code, outputs on other BLAS kernels."""
