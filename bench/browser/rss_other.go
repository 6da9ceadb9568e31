//go:build !linux

package main

// rendererPeakRSS is unknown outside Linux (no /proc).
func (t *tab) rendererPeakRSS() float64 { return -1 }
