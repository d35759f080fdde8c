"""The host offload launcher: devices, the device data environment, kernel launches, host fallback."""
