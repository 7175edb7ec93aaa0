"""Masa scoreboard (MicroPython on an ESP32 / Pico W with an SSD1306 OLED).

Joins the Wi-Fi, subscribes to the retained ``masa/<table>/scoreboard``
topic with umqtt.simple and shows its ``lines`` (one per seat, ">" marks the
seat to move) on a 128x64 display.  The payload is JSON:
``{"game": "macao", "game_no": 1, "lines": [">Ana: 3 cărți", " Dan: 5 cărți"]}``.
Settings are in CONFIG below; see firmware/README.md.
"""

import json
import time

import network
from machine import I2C, Pin
from umqtt.simple import MQTTClient

CONFIG = {"ssid": "masa-club", "password": "change-me", "broker": "192.168.1.10", "port": 1883,
          "table": "masa", "sda": 21, "scl": 22}

# Letters the 8x8 font has not: Romanian diacritics shown without them.
PLAIN = {"ă": "a", "â": "a", "î": "i", "ș": "s", "ş": "s", "ț": "t", "ţ": "t",
         "Ă": "A", "Â": "A", "Î": "I", "Ș": "S", "Ş": "S", "Ț": "T", "Ţ": "T"}


def plain(text):
    return "".join(PLAIN.get(ch, ch) for ch in text)


def display():
    import ssd1306
    i2c = I2C(0, sda=Pin(CONFIG["sda"]), scl=Pin(CONFIG["scl"]))
    return ssd1306.SSD1306_I2C(128, 64, i2c)


def show(oled, lines):
    oled.fill(0)
    for i, line in enumerate(lines[:8]):
        oled.text(plain(line)[:16], 0, i * 8)
    oled.show()


def connect_wifi():
    wlan = network.WLAN(network.STA_IF)
    wlan.active(True)
    wlan.connect(CONFIG["ssid"], CONFIG["password"])
    while not wlan.isconnected():
        time.sleep_ms(200)


def main():
    oled = display()
    show(oled, ["Masa", "Wi-Fi..."])
    connect_wifi()
    topic = "masa/%s/scoreboard" % CONFIG["table"]

    def on_message(t, msg):
        try:
            show(oled, json.loads(msg)["lines"])
        except (ValueError, KeyError):
            show(oled, ["Masa", "date gresite"])

    while True:
        try:
            client = MQTTClient("masa-board-%s" % CONFIG["table"], CONFIG["broker"], port=CONFIG["port"],
                                keepalive=30)
            client.set_callback(on_message)
            client.connect()
            client.subscribe(topic, qos=1)
            show(oled, ["Masa", CONFIG["table"], "astept..."])
            while True:
                client.wait_msg()
        except OSError:
            show(oled, ["Masa", "broker?"])
            time.sleep(5)


main()
