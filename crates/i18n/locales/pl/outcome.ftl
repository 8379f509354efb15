# Panel wyniku, pełny i skrócony.

outcome-title = Wynik
outcome-note = cały przebieg · koniec po { $end } · ziarno { $seed }
result-caption = Wynik { $number } · { $rows ->
    [one] { $rows } wiersz
    [few] { $rows } wiersze
   *[many] { $rows } wierszy
}
result-more = … i { $count } więcej
result-less = pokaż mniej wierszy
results-more = … i { $count ->
    [one] { $count } kolejny zbiór wyników
    [few] { $count } kolejne zbiory wyników
   *[other] { $count } kolejnych zbiorów wyników
}; każdy jest w zakładce Zdarzenia
error-number = Błąd { $number }
# An error without a number, in place of its code: a rule whose number is not known, SQL that is not simulated.
error-unnumbered = (bez numeru)
error-detail = (poziom { $severity }, stan { $state }): { $message }
# PostgreSQL and Teradata: no severity or state number.
error-detail-sqlstate = : { $message }
error-caught = — przechwycony w bloku CATCH
error-caught-exception = — przechwycony w bloku EXCEPTION
errors-caught = { $uncaught } (+{ $caught } { $caught ->
    [one] przechwycony
    [few] przechwycone
   *[many] przechwyconych
})
figure-ran = czas działania
figure-waited = czekanie na blokady
figure-delayed = opóźnienie, czekanie na wiersz
figure-statements = instrukcje
figure-reads = odczyty logiczne
figure-buffers = trafienia w shared buffers
figure-errors = błędy
no-results = Klient nie dostał żadnego zbioru wyników.
check-pass = ✓ spełnione
check-fail = ✗ niespełnione
check-bug = ⚠ problem odtworzony
checks-pass = Sprawdzenia: spełnione { $passed } z { $total }
goals-met = Cele spełnione w tym przebiegu: { $passed } z { $total }
exercise-note = To ćwiczenie: cele zostaną osiągnięte, gdy poprawisz SQL. Zadanie opisuje tekst lekcji.
changes-title = Co zmienił ostatni przełącznik
changes-title-beside = Czym różni się od przebiegu po lewej
changes-none = W wyniku nic się nie zmieniło.
became = zmieniło się na

compact-ended = koniec po { $end } · ziarno { $seed }
compact-checks = sprawdzenia: spełnione { $passed } z { $total }
compact-session = oczekiwanie { $wait } · { $rows ->
    [one] { $rows } wiersz
    [few] { $rows } wiersze
   *[many] { $rows } wierszy
} · { $errors ->
    [one] { $errors } błąd
    [few] { $errors } błędy
   *[many] { $errors } błędów
}
# Czas, przez który SELECT AND CONSUME Teradaty czekał w stanie opóźnienia na wiersz (po liczbach sesji).
compact-caught = { " " }(+{ $count } { $count ->
    [one] przechwycony
    [few] przechwycone
   *[many] przechwyconych
})
compact-delayed = { " " }· opóźnienie { $ms }
compact-last-toggle = Ostatni przełącznik:
compact-beside = Względem lewego:
compact-nothing-changed = w wyniku nic się nie zmieniło.
compact-more = Wyniki, błędy i sprawdzenia

# Co zmienił ostatni przełącznik: nazwy wierszy i wartości.
change-toggle = { $label }
change-seed = Ziarno
change-runs = { $session } działa
change-waited = { $session }: oczekiwanie
change-delayed = { $session }: opóźnienie w oczekiwaniu na wiersz
change-ran = { $session }: czas działania
change-errors = { $session }: błędy
change-got = { $session }: wynik
change-reads = { $session }: { $reads }
change-end = Koniec przebiegu
change-anomalies = Anomalie
change-check = Sprawdzenie „{ $name }”
change-yes = tak
change-no = nie
change-passed = spełnione
change-failed = niespełnione
change-none = brak
change-no-result = brak wyniku
