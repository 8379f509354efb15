# Słowa samego CLI: tekst `lockstep run` i eksport SVG (--lang). Liczby przychodzą już
# zapisane (`1500`), więc wyniki wyglądają tak samo w każdym języku.

# lockstep run, tekst
run-heading = lekcja { $id }  ziarno { $seed }  { $settings }
run-no-toggles = bez przełączników
run-trace-cut = … pominięto tu zdarzeń: { $count } (--full-trace je wypisze; --json ma wszystkie)
run-schedule = harmonogram { $schedule }
run-trace = przebieg:
run-outcome = wynik: koniec po { $end } ms
run-session = { $session }: oczekiwanie { $wait } ms, instrukcje: { $statements }, błędy: { $errors }{ $caught }, { $reads_name }: { $reads }, czas działania { $ran } ms{ $delayed }
run-caught = { " " }(+{ $count } przechwycone)
run-delayed = , w stanie opóźnienia { $ms } ms
run-error = błąd { $number }: { $message }
run-error-caught = błąd { $number } (przechwycony): { $message }
run-result = wynik { $number } (wiersze: { $rows }):
run-checks = sprawdzenia: zaliczone { $passed }, niezaliczone { $failed }
run-pass = SPEŁNIONE
run-fail = NIESPEŁNIONE
run-bug-reproduced = { " " }[błąd odtworzony]
run-questions = pytania: { $count }
run-question-none = żadna odpowiedź nie pasuje
run-question-many = pasuje kilka odpowiedzi: { $choices }
run-anomalies = anomalie: { $count }
run-query = zapytanie: { $sql }

# lockstep run --svg
svg-title = { $title } — oś czasu
svg-desc = Oś czasu Lockstep dla lekcji { $id }, ziarno { $seed }{ $settings }: jeden tor na sesję ({ $sessions }), wynik każdej sesji i sprawdzenia lekcji.
svg-seed = ziarno { $seed }
svg-ended = koniec po { $end } ms
svg-solution-note = z rozwiązaniem ćwiczenia
svg-span = od { $from } do { $to } ms ({ $length } ms)
svg-runs = { $session } działa, { $span }
svg-sleeps = { $session } śpi, { $span }
svg-is-waiting = { $session }: { $label }, { $span }
svg-consume-delayed = konsumpcja { $session }: { $label }, { $span }
svg-running = działa
svg-sleeping = śpi
svg-waiting-queued = czeka na { $resource } (w kolejce za wcześniejszymi)
svg-waiting-for = czeka na { $resource }, trzyma { $holders }
svg-delayed-empty = opóźnienie: { $table } jest pusta
svg-mixed-title = { $session }: krótkie odcinki ({ $count }), { $span }: działa { $running } ms, czeka { $waiting } ms, śpi { $sleeping } ms
svg-mixed-label = mieszane: działa { $running }%, czeka { $waiting }%, śpi { $sleeping }%
svg-short-run = działa
svg-short-wait = czeka
svg-short-sleep = śpi
svg-short-delayed = opóźn.
svg-short-mixed = mieszane
svg-mark-error = { $count ->
    [one] błąd { $number }
    [few] { $n } błędy { $number }
   *[many] { $n } błędów { $number }
}
svg-mark-skip = { $count ->
    [one] pominięcie READPAST
    [few] { $n } pominięcia READPAST
   *[many] { $n } pominięć READPAST
}
svg-mark-deadlock = { $count ->
    [one] ofiara zakleszczenia
    [few] { $n } ofiary zakleszczenia
   *[many] { $n } ofiar zakleszczenia
}
svg-mark-result = { $count ->
    [one] zbiór wyników
    [few] { $n } zbiory wyników
   *[many] { $n } zbiorów wyników
}
svg-mark-commit = { $count ->
    [one] zatwierdzenie
    [few] { $n } zatwierdzenia
   *[many] { $n } zatwierdzeń
}
svg-mark-rollback = { $count ->
    [one] wycofanie
    [few] { $n } wycofania
   *[many] { $n } wycofań
}
svg-mark-call = { $count ->
    [one] wywołanie zewnętrzne
    [few] { $n } wywołania zewnętrzne
   *[many] { $n } wywołań zewnętrznych
}
svg-mark-at = w { $at } ms
svg-mark-between = od { $from } do { $to } ms
svg-mark-title = { $session }: { $what } { $when }; { $event }
svg-mark-title-first = { $session }: { $what } { $when }; pierwsze: { $event }
svg-key-running = działa
svg-key-waiting = czeka na blokadę (etykieta: zasób i kto go trzyma)
svg-key-sleeping = śpi
svg-key-delayed = opóźnienie (konsumpcja w Teradata)
svg-key-mixed = mieszane: krótkie odcinki połączone (kropki)
svg-key-error = błąd (numer obok)
svg-key-skip = pominięcie READPAST
svg-key-deadlock = ofiara zakleszczenia
svg-key-result = zbiór wyników
svg-key-commit = zatwierdzenie
svg-key-rollback = wycofanie
svg-key-call = wywołanie zewnętrzne
svg-scale-note = W tej skali piksel to { $px } ms. Oczekiwania węższe niż { $min } px oraz odcinki działania lub snu węższe niż { $alone } px są łączone: sąsiednie odcinki w tym samym stanie się zlewają, a ciąg różnych stanów jest rysowany jako jeden kropkowany odcinek „mieszany” w kolorze stanu, który trwał najdłużej (podział jest w dymku). Znaczniki jednego rodzaju bliżej niż { $bucket } px są rysowane raz, z liczbą (×N). Bardzo krótkie odcinki mają szerokość { $min } px.
svg-outcome = Wynik: koniec po { $end } ms
svg-col-session = sesja
svg-col-wait = czekanie ms
svg-col-errors = błędy
svg-col-statements = instrukcje
svg-col-first-row = pierwszy wiersz wyniku
svg-none = brak
svg-no-result = brak wyniku
svg-checks = Sprawdzenia: zaliczone { $passed }, niezaliczone { $failed }
svg-no-check = Żadne sprawdzenie nie dotyczy tych ustawień.
