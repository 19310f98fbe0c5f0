"""The PDF book read back (`make pdf-test`)."""
