"""Drive the `damas gui` page in headless Chromium (Debian's chromium and chromium-driver)
through Selenium: play a move by clicking and one by dragging, see the engine's reply and the
analysis, load a FEN, resolve an ambiguous capture in the chooser, and save screenshots.

Usage: browser_check.py URL SHOT_DIR [SAVE_DIR]
"""

import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

url, shots = sys.argv[1], sys.argv[2]
save = sys.argv[3] if len(sys.argv) > 3 else None
os.makedirs(shots, exist_ok=True)

options = webdriver.ChromeOptions()
options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000"):
    options.add_argument(a)
service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
driver = webdriver.Chrome(service=service, options=options)
wait = WebDriverWait(driver, 30)


def js(script, *args):
    return driver.execute_script(script, *args)


def square(name):
    return driver.find_element(By.CSS_SELECTOR, f'#board [data-name="{name}"].sq, #board [data-name="{name}"].hit')


def piece_on(name):
    sq = square(name)
    return js(
        "return !!document.querySelector('circle.piece[data-id=\"' + arguments[0] + '\"]');",
        sq.get_attribute("data-id"),
    )


def plies():
    return len(driver.find_elements(By.CSS_SELECTOR, "#history span"))


def new_game(variant, white, black, movetime="0.2"):
    Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
    Select(driver.find_element(By.ID, "white")).select_by_value(white)
    Select(driver.find_element(By.ID, "black")).select_by_value(black)
    t = driver.find_element(By.ID, "movetime")
    t.clear()
    t.send_keys(movetime)
    driver.find_element(By.ID, "new").click()
    wait.until(lambda d: d.find_element(By.ID, "status").text.startswith(variant + ":"))


def load_fen(fen, pieces, count):
    """Type a FEN into the page, load it, and wait until `count` elements match `pieces`."""
    box = driver.find_element(By.ID, "fen")
    box.clear()
    box.send_keys(fen)
    driver.find_element(By.ID, "load-fen").click()
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, pieces)) == count)


def check(cond, what):
    if not cond:
        driver.save_screenshot(os.path.join(shots, "failure.png"))
        print("FAILED: " + what, file=sys.stderr)
        driver.quit()
        sys.exit(1)
    print("ok: " + what)


try:
    driver.get(url)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board rect.sq"))
    check(len(driver.find_elements(By.CSS_SELECTOR, "#board rect.sq.dark")) == 32, "English board drawn")

    # English: Black moves first; the engine plays White.
    new_game("english", "engine", "human")
    check("black to move" in driver.find_element(By.ID, "status").text, "black to move")
    square("11").click()
    targets = driver.find_elements(By.CSS_SELECTOR, "#board rect.sq.target")
    check(sorted(t.get_attribute("data-name") for t in targets) == ["15", "16"], "11's moves highlighted")
    square("15").click()
    wait.until(lambda d: plies() >= 2)
    check(piece_on("15") and not piece_on("11"), "11-15 played on the board")
    wait.until(lambda d: "black to move" in d.find_element(By.ID, "status").text)
    check(driver.find_element(By.ID, "pv").text.startswith("engine:"), "the engine's reply shown")
    # An illegal click does nothing: an empty square, then a white piece.
    before = plies()
    square("14").click()
    square("22").click()
    time.sleep(0.3)
    check(plies() == before, "illegal clicks play nothing")

    # Analysis: lines with depth, score and PV appear, then stop.
    driver.find_element(By.ID, "analyse").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#lines tbody tr"))
    wait.until(lambda d: "pv" in d.find_element(By.ID, "pv").text)
    driver.save_screenshot(os.path.join(shots, "analysis.png"))
    driver.find_element(By.ID, "stop").click()
    check(True, "analysis shown and stopped")

    # Load a FEN: two white kings and a black man, White to move.
    new_game("english", "human", "human")
    load_fen("W:WK10,K20:B3", "circle.piece.man, circle.piece.king", 3)
    check(piece_on("10") and piece_on("20") and piece_on("3"), "FEN loaded")
    check(len(driver.find_elements(By.CSS_SELECTOR, "text.crown")) == 2, "two kings crowned")

    # A move by drag and drop: Black's man from 9 to 13 (pressed on 9, released on 13).
    new_game("english", "human", "human")
    ActionChains(driver).click_and_hold(square("9")).move_to_element(square("13")).release().perform()
    wait.until(lambda d: plies() == 1)
    check(piece_on("13") and not piece_on("9"), "9-13 played by dragging")

    # Two captures from 2 to 18 (over 6 and 14, or over 7 and 15): clicking 2 then 18 asks
    # which, naming each by its captured pieces; the answer plays that one.
    load_fen("B:W6,7,14,15:B2", "circle.piece.man", 5)
    square("2").click()
    square("18").click()
    wait.until(lambda d: d.find_element(By.ID, "chooser").is_displayed())
    choices = sorted(b.text for b in driver.find_elements(By.CSS_SELECTOR, "#chooser button.choice"))
    check(choices == ["2x18x6x14", "2x18x7x15"], f"the chooser offers both captures ({choices})")
    check(plies() == 0, "nothing played before the choice")
    [b for b in driver.find_elements(By.CSS_SELECTOR, "#chooser button.choice") if b.text == "2x18x6x14"][0].click()
    wait.until(lambda d: plies() == 1)
    check(piece_on("18") and not piece_on("6") and not piece_on("14") and piece_on("7") and piece_on("15"),
          "the chosen capture played")

    # A double capture clicked square by square: International, White man 38 takes 33 and
    # 23, landing on 29 then 18.
    new_game("international", "human", "human")
    load_fen("W:W38:B33,23,5", "circle.piece.man", 4)
    square("38").click()
    square("29").click()  # the landing square of the first jump
    check(len(driver.find_elements(By.CSS_SELECTOR, "#board rect.sq.target")) >= 1, "next jump offered")
    square("18").click()
    wait.until(lambda d: plies() == 1)
    check(piece_on("18") and not piece_on("33") and not piece_on("23"), "double capture played by its path")

    # Screenshots of every board shape asked for.
    for variant, name in (("english", "english"), ("international", "international"),
                          ("dameo", "dameo"), ("hawaiian", "konane"), ("alquerque", "alquerque")):
        new_game(variant, "human", "human")
        count = len(driver.find_elements(By.CSS_SELECTOR, "#board [data-id]"))
        check(count > 0, f"{variant} board drawn ({count} squares)")
        path = os.path.join(shots, name + ".png")
        driver.save_screenshot(path)
        if save and name != "alquerque":
            driver.save_screenshot(os.path.join(save, name + ".png"))
    print("browser check passed")
finally:
    driver.quit()
