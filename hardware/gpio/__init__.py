"""GPIO buttons, status LEDs and a buzzer with gpiozero; the gesture logic is pure (gestures.py)."""
