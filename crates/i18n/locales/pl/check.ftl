# Co wykazało sprawdzenie: oczekiwane wobec faktycznego. Wiersze to literały SQL, nazwy
# miar pochodzą z pliku lekcji.

detail-query-failed = zapytanie nie powiodło się w { $line }:{ $col }: { $message }
detail-no-session = sesja { $session } nie działała przy tych ustawieniach
detail-no-result = sesja { $session } zwróciła { $sets } { $sets ->
    [one] zbiór wyników
    [few] zbiory wyników
   *[many] zbiorów wyników
}; sprawdzenie czyta wynik { $result }
detail-figure-run = { $figure } = { $value } ({ $expected })
detail-figure-session = { $session }: { $figure } = { $value } ({ $expected })
detail-figure-all = wszystkie sesje: { $figure } = { $value } ({ $expected })
detail-rows = otrzymano { $got }
detail-rows-differ = oczekiwano { $expected }, otrzymano { $got }
detail-row-count = oczekiwano { $expected } { $expected ->
    [one] wiersza
   *[other] wierszy
}, otrzymano { $got }
detail-row-count-listed = oczekiwano { $expected } { $expected ->
    [one] wiersza
   *[other] wierszy
}, otrzymano { $got }: { $rows }
detail-scalar = otrzymano { $value } ({ $expected })
detail-not-a-number = oczekiwano liczby, otrzymano { $got }
detail-not-one-number = oczekiwano jednego wiersza z jedną liczbą, otrzymano { $got }
detail-no-seed-run = nie uruchomiono żadnego ziarna
expected-equal = oczekiwano { $value }
expected-between = oczekiwano od { $min } do { $max }
expected-at-least = oczekiwano co najmniej { $min }
expected-at-most = oczekiwano co najwyżej { $max }
expected-anything = oczekiwano czegokolwiek
detail-session-error = sesja { $session } dostaje błąd { $number }: { $message }
