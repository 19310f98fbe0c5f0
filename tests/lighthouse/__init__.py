"""Lighthouse over every chapter (`make lighthouse`)."""
