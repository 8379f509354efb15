# Strona ćwiczenia: cele, sprawdzanie, wskazówki, edytor.

exercise-not-title = To nie jest ćwiczenie
exercise-not-before = Lekcja{" "}
exercise-not-after = {" "}nie ma celów do sprawdzenia.
exercise-not-open = Otwórz ją w odtwarzaczu.
exercise-watch = Obejrzyj początkowy SQL w odtwarzaczu
exercise-goal = Cel:
exercise-goals = Cele
exercise-side = Cele i sprawdzanie
exercise-cannot-run = Tego ćwiczenia nie da się uruchomić
dismiss = Zamknij
progress-corrupt = Zapisanych postępów tego ćwiczenia nie dało się odczytać, więc zostały wyzerowane.
hint-first = Pokaż wskazówkę (1 z { $total })
hint-next = Następna wskazówka ({ $number } z { $total })
check-button = Sprawdź
reset-progress = Wyczyść postępy
reset-progress-title = Wróć do początkowego SQL; zapomina, że ćwiczenie zostało rozwiązane
reset-done = Postęp wyzerowany: wrócił początkowy SQL.
reset-undo = Cofnij
checking = Sprawdzanie na { $seeds ->
    [one] 1 ziarnie
   *[other] { $seeds } ziarnach
}…
check-progress = ziarno { $seed } ({ $number } z { $seeds }), { $steps } { $steps ->
    [one] krok
    [few] kroki
   *[many] kroków
} silnika, { $time } czasu wirtualnego
check-progress-showing = ziarna sprawdzone; teraz przebieg do pokazania: { $steps } { $steps ->
    [one] krok
    [few] kroki
   *[many] kroków
} silnika, { $time } czasu wirtualnego
check-cancelled = Sprawdzanie anulowane: { $progress }. Żaden cel nie został oceniony; zmień SQL i naciśnij Sprawdź ponownie.
check-solved = Rozwiązane: każdy cel jest spełniony na wszystkich ziarnach ({ $seeds }).
check-run-error = Jeszcze nie: przebieg twojego SQL skończył się błędem, więc spełnione w nim cele się nie liczą (oznaczone –); pozostałe nie zostały spełnione, jak pokazano.
check-failed = Jeszcze nie: niespełnione cele: { $failed } z { $total }. Poniżej przebieg, w którym pierwszy z nich nie został spełniony.
check-no-seed = Żadne ziarno nie zostało uruchomione.
check-empty-block = ten blok jest pusty: napisz jego SQL („Wyczyść postępy” przywraca początkowy SQL).
check-goto = Ustaw kursor w wierszu { $line }, kolumnie { $col }
check-limit = Symulator zatrzymał twój SQL na jednym ze swoich limitów: { $message }
check-stale = Twój SQL zmienił się od tego sprawdzenia: naciśnij Sprawdź ponownie.
editor-label = Twój SQL:
editor-changed = zmieniony
editor-indents = {" "}wcina,{" "}
editor-outdents = {" "}cofa wcięcie ·{" "}
editor-then = , potem{" "}
editor-moves-on = , przechodzi dalej
editor-checks = {" "}sprawdza
shown-label = Przebieg
shown-failed = Gdzie cel „{ $goal }” nie został spełniony: ziarno { $seed }
shown-solution = Przebieg twojego rozwiązania: ziarno { $seed }
shown-error = Tego przebiegu nie da się pokazać

# Werdykt celu obok jego nazwy.
goal-unjudged-error = nie oceniono: twój SQL zawiera błąd
goal-unjudged-cancelled = nie oceniono: sprawdzanie anulowane
goal-unchecked = jeszcze nie sprawdzono
goal-checking = trwa sprawdzanie…
goal-not-counted = nie liczy się: przebieg na ziarnie { $seed } skończył się błędem
goal-met-all = spełniony na wszystkich ziarnach ({ $seeds })
goal-failed-on = niespełniony na ziarnie { $seed }: { $detail }
goal-met-last = spełniony przy ostatnim sprawdzeniu
goal-not-met-last = niespełniony przy ostatnim sprawdzeniu
check-failed-run-stopped = ziarno { $seed }, sesja { $session }: { $message }
check-failed-run = ziarno { $seed }, sesja { $session }: błąd { $number }: { $message }

## A SQL parse error's frame (the parser's English, reworded in the exercise editor).
sqlerr-not-simulated = nie jest symulowane: { $what }
sqlerr-end = nieoczekiwany koniec tekstu
sqlerr-found = znaleziono '{ $token }'
sqlerr-expected-one = oczekiwano: { $item }
sqlerr-expected-many = oczekiwano jednego z: { $items }
sqlerr-join = { $found }, { $expected }
sqlerr-paren = nawias '(' { $place } nie jest zamknięty
sqlerr-string = tekst otwarty { $place } ciągnie się aż tutaj: czy brakuje zamykającego apostrofu?
sqlerr-semicolon = instrukcja kończy się na swoim ';': bez niego PostgreSQL czyta ten wiersz jako dalszy ciąg instrukcji powyżej
sqlerr-place-here = w kolumnie { $col }
sqlerr-place-above = w wierszu wyżej, w kolumnie { $col },
sqlerr-place-up = { $lines ->
    [one] { $lines } wiersz wyżej
    [few] { $lines } wiersze wyżej
   *[many] { $lines } wierszy wyżej
}, w kolumnie { $col },
sqlerr-item-dollar-body = treść w cudzysłowie dolarowym ($$ ... $$)
sqlerr-item-transaction-name = nazwa transakcji
sqlerr-item-expression = wyrażenie
sqlerr-item-identifier = identyfikator
sqlerr-item-operator = operator
sqlerr-item-statement = instrukcja
sqlerr-item-table-hint = wskazówka tabeli
sqlerr-item-set-option = opcja SET
sqlerr-item-data-type = typ danych
sqlerr-item-variable = zmienna
sqlerr-item-constant = stała
sqlerr-item-duration = czas trwania
sqlerr-item-alias = alias
sqlerr-item-setting = ustawienie
sqlerr-item-number = liczba
sqlerr-item-string = tekst w apostrofach
exercise-solved-before = ✓ Rozwiązane wcześniej (nie w obecnej postaci)
