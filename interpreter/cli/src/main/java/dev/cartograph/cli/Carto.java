package dev.cartograph.cli;

public final class Carto {
    public static void main(String[] args) {
    }
}
