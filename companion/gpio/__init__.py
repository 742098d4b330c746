"""GPIO buttons, status LEDs and a buzzer for `companion run` (docs/pi.md; drivers in hardware/gpio/)."""
