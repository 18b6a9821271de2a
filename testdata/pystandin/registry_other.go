//go:build !windows

package main

func register(minor, dir string) error { return nil }

func unregister(minor string) {}
