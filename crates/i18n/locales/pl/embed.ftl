# Osadzony odtwarzacz i kopiowanie kodu osadzenia.

embed-open = Otwórz w Lockstep
embed-open-new-tab = (otwiera nową kartę)
embed-url-warnings-title = Nie udało się dokładnie odtworzyć linku tego osadzenia
embed-copy = Kopiuj kod osadzenia
embed-paste-before = Wklej obie linie na swoją stronę:{" "}
embed-paste-after = {" "}dopasowuje wysokość widżetu (wystarczy raz na stronę).
embed-full = wszystkie panele (view=full)
embed-copied = Skopiowano do schowka
embed-moved = Odtwarzacz się przesunął: skopiuj ponownie dla tej chwili
embed-selected = Zaznaczono: naciśnij Ctrl+C (⌘C na Macu), by skopiować
